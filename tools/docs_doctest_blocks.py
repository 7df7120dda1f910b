"""A griffe extension for the API reference: docstrings' doctest blocks shown as code.

The package's docstrings write their examples as doctest blocks, ``>>>`` lines with their
output below, ended by a blank line, as ``help()`` and reST show them. Markdown, which the
API page renders docstrings with, has no such block: ``>>>`` would open three nested
quotes and the lines would run together. This extension fences each block as ``pycon``
code before mkdocstrings renders it (``extensions:`` of the Python handler in mkdocs.yml),
and leaves the docstrings themselves alone.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

_PROMPT = re.compile(r"^(\s*)>>> ")


def fence_doctest_blocks(text: str) -> str:
    """``text`` with each doctest block (from a ``>>>`` line to the next blank line, or
    the end) inside a fenced ``pycon`` code block; blocks already fenced are kept as they are."""
    out: list[str] = []
    lines = text.split("\n")
    fenced = False  # inside a ``` block the docstring fenced itself
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        prompt = _PROMPT.match(line)
        if fenced or prompt is None:
            out.append(line)
            i += 1
            continue
        indent = prompt.group(1)
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i][len(indent) :] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        # A fence needs a blank line before it when the paragraph above runs into it.
        if out and out[-1].strip():
            out.append("")
        out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
    return "\n".join(out)


class DoctestBlocks(Extension):
    """Fences the doctest blocks of every docstring griffe loads."""

    def on_instance(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>> " in obj.docstring.value:
            obj.docstring.value = fence_doctest_blocks(obj.docstring.value)
