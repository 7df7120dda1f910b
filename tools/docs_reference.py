"""The documentation's generated reference pages: the command line and the learning spaces.

``docs/reference/cli.md`` and ``docs/reference/spaces.md`` hold one ``exec="on"`` block
each that prints :func:`cli_markdown` or :func:`spaces_markdown`, so the site shows what
the code says at build time (markdown-exec runs the block during ``mkdocs build``), never
text copied from it. This file is also the site's MkDocs hook (``hooks:`` in mkdocs.yml):
MkDocs loads hooks under their path, not an importable name, so ``on_config`` registers
this module as ``docs_reference`` for the pages' blocks to import.

``tests/test_docs.py`` checks the built pages against ``ActionSpace`` and
``ObservationSpace`` computed on its own.
"""

from __future__ import annotations

import argparse
import html
import sys
from collections.abc import Iterator, Sequence
from typing import Any

# The configurations of reference/spaces.md: a title, the keywords of ``Rules(...)`` and
# why it is there. One per rule system's defaults, and the richest base-game deck.
CONFIGURATIONS: list[tuple[str, dict[str, Any], str]] = [
    ("Base game, 2 players", {}, "The default rules."),
    (
        "Base game with Inns & Cathedrals and Traders & Builders",
        {
            "tile_sets": ["base", "inns-and-cathedrals", "traders-and-builders"],
            "inns_and_cathedrals_scoring": True,
            "traders_goods": True,
        },
        "Both expansions' tiles and their scoring (inns, cathedrals, goods).",
    ),
    ("The Ferries", {"tile_sets": ["base", "ferries"]}, "The base game with The Ferries' lake tiles."),
    (
        "Carcassonne Maps: continental map, small towns (variant 1)",
        {"map": "continental", "small_towns": [1]},
        "A built-in map with the small-town variant that offers an extra turn.",
    ),
    ("South Seas", {"tile_sets": ["south-seas"]}, "South Seas: islanders, wares, ships and boats."),
    (
        "South Seas with Friday",
        {"tile_sets": ["south-seas"], "friday": True},
        "South Seas with the Friday mini-expansion.",
    ),
]

# As wide as a code block of the site's pages shows without scrolling.
_USAGE_WIDTH = 76


def on_config(config: Any) -> Any:
    """MkDocs hook: make this module importable as ``docs_reference`` by the pages' blocks."""
    sys.modules.setdefault("docs_reference", sys.modules[__name__])
    return config


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: HTML-escaped, its pipes as entities (a literal
    ``|`` would split the cell; metavars such as ``N|PLAYER`` have them)."""
    return html.escape(text, quote=False).replace("|", "&#124;")


def _code(text: str) -> str:
    """Inline code in a table cell, as HTML so that its pipes can be escaped too."""
    return f"<code>{_cell(text)}</code>"


def _rules_call(options: dict[str, Any]) -> str:
    """The ``Rules(...)`` call that makes a configuration, as a user would write it."""
    return "Rules(" + ", ".join(f"{k}={v!r}" for k, v in options.items()) + ")"


# ----- the command line -------------------------------------------------------------------


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """``parser``'s subcommands in declaration order: (name, one-line help, parser)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def _walk(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, argparse.ArgumentParser]]:
    """Every subcommand under ``parser``, depth first: (its words, its help, its parser)."""
    for name, help_text, sub in _subcommands(parser):
        yield (*path, name), help_text, sub
        yield from _walk(sub, (*path, name))


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=_USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    return formatter.format_help().strip()


def _value(action: argparse.Action) -> str:
    """What an option takes: its choices, its metavar, or nothing for a switch."""
    if action.nargs == 0:
        return ""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        return "{" + ",".join(str(c) for c in action.choices) + "}"
    metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    return {"+": f"{metavar} ...", "*": f"[{metavar} ...]", "?": f"[{metavar}]"}.get(str(action.nargs), metavar)


def _help(action: argparse.Action, prog: str) -> str:
    """An action's help with argparse's ``%(default)s`` and the like filled in."""
    text = action.help or ""
    if "%" in text:
        params = {**vars(action), "prog": prog}
        text = text % params
    return text


def _arguments_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) or action.help == argparse.SUPPRESS:
            continue
        names = ", ".join(action.option_strings) if action.option_strings else _value(action)
        value = _value(action) if action.option_strings else ""
        rows.append(
            f"| {_code(names)} | {_code(value) if value else ''} | {_cell(_help(action, parser.prog))} |"
        )
    if not rows:
        return ["No arguments."]
    return ["| Argument | Value | Meaning |", "| --- | --- | --- |", *rows]


def cli_markdown(parser: argparse.ArgumentParser | None = None) -> str:
    """The command line's reference as Markdown: for every subcommand (nested ones too) its
    help, description, usage and a table of its arguments, read from the argparse parser of
    ``carcassonne.cli`` (or ``parser``)."""
    if parser is None:
        from carcassonne import cli

        parser = cli.build_parser()
    out = [
        f"`{parser.prog}` is installed with the package (also `python -m carcassonne`). "
        f"{parser.description or ''} Every subcommand takes `-h` / `--help`.",
        "",
        "```text",
        _usage(parser),
        "```",
        "",
        "| Subcommand | What it does |",
        "| --- | --- |",
    ]
    commands = list(_walk(parser))
    for words, help_text, _ in commands:
        out.append(f"| [{_code(' '.join(words))}](#{'-'.join(words)}) | {_cell(help_text)} |")
    for words, help_text, sub in commands:
        level = "#" * (1 + len(words))
        out += ["", f'{level} `{parser.prog} {" ".join(words)}` {{#{"-".join(words)}}}', ""]
        description = sub.description or help_text
        if description:
            out += [description[0].upper() + description[1:], ""]
        out += ["```text", _usage(sub), "```", ""]
        out += _arguments_table(sub)
    return "\n".join(out) + "\n"


# ----- the learning spaces ----------------------------------------------------------------


def space_tables(options: dict[str, Any]) -> dict[str, Any]:
    """A configuration's action space and observations as plain rows: ``blocks`` (name,
    first token, last token, shape, axes, meaning), ``planes`` (index, name, largest value),
    ``fields`` (name, offset, length), and the sizes."""
    from carcassonne import ObservationSpace, Rules

    rules = Rules(**options)
    space = rules.action_space
    obs = ObservationSpace(rules, space)
    offsets = []
    offset = 0
    for name, length in obs.fields:
        offsets.append((name, offset, length))
        offset += length
    return {
        "size": space.size,
        "window": space.window,
        "blocks": [(b.name, b.start, b.start + b.size - 1, list(b.shape), list(b.axes), b.doc) for b in space.blocks],
        "board_shape": tuple(obs.board_shape),
        "vector_size": obs.vector_size,
        "planes": [(i, name, top) for i, (name, top) in enumerate(zip(obs.planes, obs.plane_max, strict=True))],
        "fields": offsets,
    }


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join(" --- " for _ in header) + "|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def spaces_markdown() -> str:
    """Every configuration of :data:`CONFIGURATIONS`: its action blocks, observation planes
    and vector fields, as Markdown tables computed from the engine now."""
    out: list[str] = []
    for title, options, why in CONFIGURATIONS:
        t = space_tables(options)
        planes, window, _ = t["board_shape"]
        out += [
            f"## {title}",
            "",
            f"{why} `{_rules_call(options)}`: {t['size']:,} tokens, a window of {t['window']} x {t['window']} "
            f"squares, observations of {planes} board planes ({planes} x {window} x {window} bytes) and a "
            f"vector of {t['vector_size']} floats.",
            "",
            f"### Action blocks ({len(t['blocks'])})",
            "",
        ]
        out += _table(
            ["Block", "Tokens", "Shape", "Axes", "Meaning"],
            [
                [_code(n), f"{a:,} to {b:,}", " x ".join(map(str, shape)), ", ".join(axes), _cell(doc)]
                for n, a, b, shape, axes, doc in t["blocks"]
            ],
        )
        out += ["", f"### Board planes ({planes})", ""]
        out += _table(["Plane", "Name", "Largest value"], [[str(i), _code(n), str(top)] for i, n, top in t["planes"]])
        out += ["", f"### Vector fields ({len(t['fields'])}, {t['vector_size']} floats)", ""]
        out += _table(
            ["Field", "Offset", "Length"], [[_code(n), str(o), str(length)] for n, o, length in t["fields"]]
        )
        out.append("")
    return "\n".join(out)
