"""Fix for JIT301: an unhashable list / set literal at a static position -> tuple / frozenset.

``f(x, axes=[0, 1])`` -> ``f(x, axes=(0, 1))`` and ``f(x, names={"a"})`` ->
``f(x, names=frozenset({"a"}))``.  The call raised ``ValueError`` before, so no working
behaviour can change.  Only literals whose elements are not containers themselves (a tuple of
lists would still be unhashable), and ``frozenset`` only where that name is the builtin.
Comments and line breaks inside the brackets are kept.
"""

from __future__ import annotations

from typing import Union

import libcst as cst

from jitlint.fixes import Edit, Refusal
from jitlint.rule import FileContext, Violation

CODES = ("JIT301",)
CONTAINERS = (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp,
              cst.GeneratorExp, cst.Tuple)


def fix(ctx: FileContext, violation: Violation) -> Union[Edit, Refusal]:
    arg = violation.node
    if not isinstance(arg, cst.Arg) or arg.star:
        return Refusal("only a list or set literal written at the static position is fixed")
    value = arg.value
    if not isinstance(value, (cst.List, cst.Set)) or value.lpar:
        return Refusal("only a list or set literal written at the static position is fixed")
    if any(isinstance(element.value, CONTAINERS) or isinstance(element, cst.StarredElement)
           for element in value.elements):
        return Refusal("an element is a container or a `*` unpacking, which would stay unhashable")
    if isinstance(value, cst.List):
        new = _as_tuple(value)
        description = "list -> tuple"
    else:
        site = next((s for s in ctx.model.calls if any(a is arg for a in s.node.args)), None)
        if site is None:
            return Refusal("the call is not one jitlint can see whole")
        if ctx.model.lookup("frozenset", site.frame.scope):
            return Refusal("`frozenset` is not the builtin here")
        new = cst.Call(cst.Name("frozenset"), [cst.Arg(value)])
        description = "set -> frozenset"
    return Edit(regions=(value,), replace={value: new}, description=description)


def _as_tuple(value: cst.List) -> cst.Tuple:
    elements = list(value.elements)
    if len(elements) == 1 and not isinstance(elements[0].comma, cst.Comma):
        elements[0] = elements[0].with_changes(comma=cst.Comma())
    return cst.Tuple(
        elements,
        lpar=[cst.LeftParen(whitespace_after=value.lbracket.whitespace_after)],
        rpar=[cst.RightParen(whitespace_before=value.rbracket.whitespace_before)],
    )
