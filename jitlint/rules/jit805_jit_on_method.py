from typing import Iterator

import libcst as cst

from jitlint.jaxfacts import PYTREE_REGISTRATIONS
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._jitted import TRACING_JITS, jitted_functions, positional_params, static_names
from jitlint.staticargs import spec_of

# Methods that make a class a pytree (register_pytree_node_class): then `self` is a valid
# argument and jit flattens it.
PYTREE_METHODS = frozenset({"tree_flatten", "tree_unflatten"})


class JitOnMethod(Rule):
    """
    ## What it does
    Flags `@jax.jit` (or `@partial(jax.jit, ...)` without `self` static) directly on a method
    of a plain class: no base class, no class decorator, no `tree_flatten`, not registered by
    a call in the module (`jax.tree_util.register_pytree_node(Cls, ...)` and the others of
    `jaxfacts.PYTREE_REGISTRATIONS`). A pytree class (`equinox.Module`, a `flax.struct`
    dataclass, `register_pytree_node_class`) is silent: there `self` is a valid jit argument.

    ## Why is this bad?
    jit treats every non-static argument as an array, `self` included. Measured on jax 0.10.2
    (CPU): calling a `@jax.jit` method of a plain object raises `TypeError: Error interpreting
    argument to <function M.f> as an abstract array. The problematic value is of type <class
    'M'>` on the first call.

    ## Fix safety
    `@partial(jax.jit, static_argnums=0)` makes `self` static: it must then be hashable, and
    its attributes are baked in at the first trace (a later `self.w = ...` is not seen). Safer:
    jit a function of the arrays, `jax.jit(self._forward)` in `__init__` with the parameters
    passed as arguments, or make the class a pytree.
    """

    code = "JIT805"
    name = "jit-on-method"
    summary = "@jax.jit on a method traces `self`, which raises TypeError on the first call"
    severity = "error"

    INVALID = [
        """
        import jax

        class Model:
            def __init__(self, w):
                self.w = w

            @jax.jit
            def predict(self, x):
                return x @ self.w
        """,
    ]
    VALID = [
        """
        import jax

        class Model:
            def __init__(self, w):
                self.w = w
                self._predict = jax.jit(self.predict_with)

            @staticmethod
            def predict_with(w, x):
                return x @ w

            def predict(self, x):
                return self._predict(self.w, x)
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        registered = None
        for func, entry in jitted_functions(ctx).items():
            frame = ctx.model.functions.get(func)
            if frame is None or frame.scope.kind != "class" or not _plain_class(frame.scope.node):
                continue
            if registered is None:
                registered = _registered_classes(ctx)
            if frame.scope.node in registered:
                continue
            if any(_decorator_name(d) in ("staticmethod", "classmethod") for d in func.decorators):
                continue
            params = positional_params(func)
            if not params or params[0].name.value != "self":
                continue
            for app in entry.apps:
                if app.anchor not in func.decorators or app.jit.qualname not in TRACING_JITS:
                    continue
                static = static_names(spec_of(app, ctx.model))
                if static is None or "self" in static:
                    continue
                yield Violation(app.anchor, (
                    f"jit on method `{func.name.value}` traces `self`, an object of a plain class: "
                    f"the first call raises TypeError; jit a function of the arrays instead "
                    f"(or make the class a pytree)"))


def _plain_class(node: cst.CSTNode) -> bool:
    if not isinstance(node, cst.ClassDef) or node.decorators:
        return False
    if any(not (isinstance(b.value, cst.Name) and b.value.value == "object") for b in node.bases):
        return False
    return not any(isinstance(s, cst.FunctionDef) and s.name.value in PYTREE_METHODS
                   for s in node.body.body)


def _registered_classes(ctx: FileContext) -> set[cst.CSTNode]:
    """Classes of this module made pytrees by a call: ``register_pytree_node(Cls, ...)``."""
    found = set()
    for site in ctx.model.calls:
        args = site.node.args
        if not args or not isinstance(args[0].value, cst.Name) or args[0].keyword is not None:
            continue
        if ctx.model.qualified_name(site.node.func, site.frame.scope) not in PYTREE_REGISTRATIONS:
            continue
        found.update(b.node for b in ctx.model.bindings_at(args[0].value, site.frame.scope)
                     if isinstance(b.node, cst.ClassDef))
    return found


def _decorator_name(decorator: cst.Decorator) -> str:
    expr = decorator.decorator
    return expr.value if isinstance(expr, cst.Name) else ""
