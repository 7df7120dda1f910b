"""The SVG document: the string notebooks show as a picture (``SvgWrapper``), its root and
elements (``xml.etree.ElementTree``), numbers written with at most two decimals, text labels."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from carcassonne.svg.geometry import Point

class SvgWrapper(str):
    """An SVG document; notebooks (Jupyter) display it as a picture."""

    def _repr_svg_(self) -> SvgWrapper:
        return self


def _fmt(v: float) -> str:
    """A number for the document: at most two decimals, no "-0"."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pt(p: Point) -> str:
    return f"{_fmt(p[0])},{_fmt(p[1])}"


def _svg_root(view: tuple[int, int, int, int], width: int, height: int, cls: str) -> ET.Element:
    """The ``svg`` element of a picture: its view box in user units, its size in pixels."""
    vx, vy, vw, vh = view
    return ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "viewBox": f"{vx} {vy} {vw} {vh}",
            "width": str(width),
            "height": str(height),
            "class": cls,
        },
    )


def _el(parent: ET.Element, tag: str, **attrs: str) -> ET.Element:
    return ET.SubElement(parent, tag, {k.replace("_", "-"): v for k, v in attrs.items()})


def _label(parent: ET.Element, at: Point, text: str, size: int = 22, fill: str = "#222222", **attrs: str) -> None:
    t = _el(
        parent,
        "text",
        x=_fmt(at[0]),
        y=_fmt(at[1]),
        fill=fill,
        font_family="sans-serif",
        font_size=str(size),
        text_anchor="middle",
        dominant_baseline="central",
        **attrs,
    )
    t.text = text
