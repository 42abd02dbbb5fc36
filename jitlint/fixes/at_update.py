"""Fix for JIT818: an item assignment into a jax array -> the ``.at[]`` update, rebound.

``x[i] = v`` -> ``x = x.at[i].set(v)`` and ``x[i] += v`` -> ``x = x.at[i].add(v)`` (also
``-=``, ``*=``, ``/=``, ``**=``).  The statement raised ``TypeError`` before, so no working
behaviour can change: the fix is safe where the rebinding means what the write meant.  It is
refused where it would not:

* the write stores several targets (``x[0] = y[0] = v``, ``x[0], x[1] = a, b``), or uses an
  operator with no ``.at[]`` method (``//=``, ``%=``, ...);
* the array's name is bound in another scope (a module-level array written in a function
  without ``global``: the rebinding would make it a local, read before assignment);
* the write sits in a ``try`` whose handler catches the ``TypeError`` (the program may rely
  on it being raised).
"""

from __future__ import annotations

from typing import Union

import libcst as cst

from jitlint.fixes import Edit, Refusal
from jitlint.rule import FileContext, Violation
from jitlint.rules.jit818_item_assignment_on_jax_array import AT_METHODS
from jitlint.walk import ancestors, iter_nodes, parent_map

CODES = ("JIT818",)
CATCHING_TYPE_ERROR = frozenset({"TypeError", "Exception", "BaseException"})


def fix(ctx: FileContext, violation: Violation) -> Union[Edit, Refusal]:
    store = violation.node
    parents = parent_map(ctx.module)
    if not isinstance(store, cst.Subscript) or not isinstance(store.value, cst.Name):
        return Refusal("only a write into a plain name's item is fixed")
    holder = parents.get(id(store))
    statement = parents.get(id(holder)) if isinstance(holder, cst.AssignTarget) else holder
    if isinstance(statement, cst.Assign):
        if len(statement.targets) != 1:
            return Refusal("the statement assigns several targets")
        method, value, operator = "set", statement.value, "="
    elif isinstance(statement, cst.AugAssign):
        method, value = AT_METHODS.get(type(statement.operator)), statement.value
        operator = ctx.module.code_for_node(statement.operator).strip()
        if method is None:
            return Refusal(f"`{operator}` has no .at[] method")
    else:
        return Refusal("only a statement `x[i] = v` or `x[i] op= v` of one target is fixed")
    name = store.value.value
    frame = next(frame for _, frame, write in ctx.model.item_writes
                 if write is holder)
    bindings = ctx.model.lookup(name, frame.scope)
    if not bindings or any(binding.scope is not frame.scope for binding in bindings) \
            or name in frame.scope.global_names:
        return Refusal(f"`{name}` is bound outside this scope: rebinding it here would make it a "
                       f"local name")
    if _catches_type_error(statement, parents):
        return Refusal("a `try` around it catches the TypeError the write raises")
    updated = cst.Call(
        cst.Attribute(cst.Subscript(cst.Attribute(cst.Name(name), cst.Name("at")), store.slice,
                                    lbracket=store.lbracket, rbracket=store.rbracket),
                      cst.Name(method)),
        [cst.Arg(value)])
    new = cst.Assign(targets=[cst.AssignTarget(cst.Name(name))], value=updated,
                     semicolon=statement.semicolon)
    return Edit(regions=(statement,), replace={statement: new},
                description=f"`{name}[...] {operator}` -> "
                            f"`{name} = {name}.at[...].{method}(...)`")


def _catches_type_error(statement: cst.CSTNode, parents) -> bool:
    """A ``try`` whose body holds ``statement`` (in this function) has a handler for TypeError."""
    inner = statement
    for outer in ancestors(parents, statement):
        if isinstance(outer, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return False
        if isinstance(outer, cst.Try) and inner is outer.body and any(
                handler.type is None or any(isinstance(n, cst.Name) and n.value in CATCHING_TYPE_ERROR
                                            for n in iter_nodes(handler.type))
                for handler in outer.handlers):
            return True
        inner = outer
    return False
