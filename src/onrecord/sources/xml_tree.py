"""XML parsed safely (defusedxml: no entity declarations, no external references, so no
entity bomb and no file read through an entity), with the byte span of every element,
so a record is the exact bytes of its element and is cited by its XPath."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from xml.parsers import expat

import defusedxml
from defusedxml.ElementTree import DefusedXMLParser

from onrecord.errors import InputError

# The end of a start tag (or an empty element's tag), skipping quoted attribute values.
TAG_END = re.compile(rb"""<[^"'>]*(?:(?:"[^"]*"|'[^']*')[^"'>]*)*>""")


class _SpanBuilder(ET.TreeBuilder):
    def __init__(self):
        super().__init__()
        self.parser = None
        self.starts: dict[int, int] = {}
        self.ends: dict[int, int] = {}
        self.source = b""

    def start(self, tag, attrs):
        elem = super().start(tag, attrs)
        self.starts[id(elem)] = self.parser.parser.CurrentByteIndex
        return elem

    def end(self, tag):
        elem = super().end(tag)
        opening = TAG_END.match(self.source, self.starts[id(elem)])
        if opening and self.source[opening.end() - 2:opening.end()] == b"/>":  # an empty element: one tag
            self.ends[id(elem)] = opening.end()
            return elem
        at = self.parser.parser.CurrentByteIndex  # where its end tag starts
        m = TAG_END.match(self.source, at)
        self.ends[id(elem)] = m.end() if m else at
        return elem


class Document:
    """The parsed tree, each element's byte span, its parent, and its XPath."""

    def __init__(self, root: ET.Element, starts: dict, ends: dict, prefixes: dict[str, str]):
        self.root, self.starts, self.ends, self.prefixes = root, starts, ends, prefixes
        self.parents = {id(c): p for p in root.iter() for c in p}

    def span(self, elem: ET.Element) -> tuple[int, int]:
        return self.starts[id(elem)], self.ends[id(elem)]

    def xpath(self, elem: ET.Element) -> str:
        """`/alert/info[2]`: the element's absolute location (positions among same-named siblings)."""
        steps = []
        while elem is not None:
            parent = self.parents.get(id(elem))
            name = self._name(elem.tag)
            if parent is not None:
                same = [c for c in parent if c.tag == elem.tag]
                if len(same) > 1:
                    name += f"[{same.index(elem) + 1}]"
            steps.append(name)
            elem = parent
        return "/" + "/".join(reversed(steps))

    def _name(self, tag: str) -> str:
        if tag.startswith("{"):
            ns, local = tag[1:].split("}", 1)
            prefix = self.prefixes.get(ns)
            return f"{prefix}:{local}" if prefix else local
        return tag


def parse_xml(data: bytes, file: str, namespaces: dict[str, str] | None = None) -> Document:
    builder = _SpanBuilder()
    builder.source = data
    parser = DefusedXMLParser(target=builder)
    builder.parser = parser
    try:
        parser.feed(data)
        root = parser.close()
    except defusedxml.EntitiesForbidden as exc:
        raise InputError(f"the XML declares an entity ({exc.name!r}); entities are refused, since one can "
                         f"expand into gigabytes (an XML bomb) or read other files", file=file,
                         line=_line(data, builder.parser)) from exc
    except defusedxml.ExternalReferenceForbidden as exc:
        raise InputError("the XML refers to an external entity; external references are refused",
                         file=file, line=_line(data, builder.parser)) from exc
    except (ET.ParseError, expat.ExpatError) as exc:
        line = getattr(exc, "position", (None,))[0]
        raise InputError(f"not valid XML: {exc}", file=file, line=line) from exc
    prefixes = {uri: p for p, uri in (namespaces or {}).items()}
    return Document(root, builder.starts, builder.ends, prefixes)


def _line(data: bytes, parser) -> int | None:
    try:
        return parser.parser.CurrentLineNumber
    except AttributeError:
        return None
