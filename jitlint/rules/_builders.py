"""Which library call built an object: ``solver`` of ``solver = optax.lbfgs()``, also a
member of an optax combinator (``optax.chain(optax.sgd(0.1), linesearch)``), written there or
bound to a name first.  JIT520 asks it for the objects whose methods run lax loops, JIT502 for
the optimizers whose ``init`` state is weakly typed."""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from jitlint.jaxfacts import OPTAX_COMBINATORS
from jitlint.semantic import Frame, Scope, SemanticModel


def built_by(call: cst.Call, scope: Scope, frame: Frame, model: SemanticModel,
             wanted: Callable[[str, cst.Call], bool]) -> Optional[str]:
    """The qualified name of the library call that ``wanted`` accepts and that builds the
    object ``call`` makes: ``call`` itself, or a member of the optax combinator it is (the
    first, in argument order)."""
    qualname = model.qualified_name(call.func, scope)
    if qualname is not None and wanted(qualname, call):
        return qualname
    if qualname in OPTAX_COMBINATORS:
        for arg in call.args:
            member = (arg.value, scope, frame) if isinstance(arg.value, cst.Call) else \
                model.value_origin(arg.value, scope, frame)
            if member is not None and isinstance(member[0], cst.Call):
                found = built_by(member[0], member[1], member[2], model, wanted)
                if found is not None:
                    return found
    return None


def receiver_built_by(receiver: cst.BaseExpression, scope: Scope, frame: Frame, model: SemanticModel,
                      wanted: Callable[[str, cst.Call], bool]) -> Optional[str]:
    """``built_by`` for the object a name holds (``solver`` in ``solver.update(...)``)."""
    origin = model.value_origin(receiver, scope, frame)
    if origin is None or not isinstance(origin[0], cst.Call):
        return None
    return built_by(origin[0], origin[1], origin[2], model, wanted)
