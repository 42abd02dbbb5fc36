from typing import Iterator

import libcst as cst

from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import live_applications
from jitlint.rules._arguments import plain_class
from jitlint.rules._jitted import OBJECT_TRACING_JITS, TRACING_JITS, jitted_functions, positional_params, static_names
from jitlint.semantic import decorator_name
from jitlint.staticargs import literal, spec_of


class JitOnMethod(Rule):
    """
    ## What it does
    Flags `@jax.jit` (or `@partial(jax.jit, ...)` without `self` static) directly on a method
    of a plain class: no base class but plain classes of this module (none of which defines
    `__init_subclass__`, which may register subclasses) and library bases that make no pytree
    (`abc.ABC`, torch's `Dataset`: `jaxfacts.PLAIN_CLASS_BASES`, rl-blox PR 19, a jitted
    `__getitem__` of GAN-with-JAX's dataset), no metaclass but `abc.ABCMeta`
    (`jaxfacts.PLAIN_METACLASSES`: neural_ilqr's network base class), no class decorator but
    ones that make no pytree
    (`@dataclass`, `@attr.s`, `@attrs.define`: `jaxfacts.NON_PYTREE_CLASS_DECORATORS`; jax issue
    1567), no `tree_flatten`, not registered by
    a call in the module (`jax.tree_util.register_pytree_node(Cls, ...)` and the others of
    `jaxfacts.PYTREE_REGISTRATIONS`). A pytree class (`equinox.Module`, a `flax.struct`
    dataclass, `register_pytree_node_class`) is silent: there `self` is a valid jit argument.
    The same holds for a bare `@nnx.jit` on such a method: nnx.jit splits NNX objects into
    state but hands any other argument to jax.jit (learning-jax's MNIST trainer class, TypeError
    at the first step; the trainer made an `nnx.Module` runs).
    Also `@jax.jit` directly under `@classmethod` unless `static_argnums` names position 0 (or
    `static_argnames` the first parameter): every call passes the class object first.

    ## Why is this bad?
    jit treats every non-static argument as an array, `self` included. Measured on jax 0.10.2
    (CPU): calling a `@jax.jit` method of a plain object raises `TypeError: Error interpreting
    argument to <function M.f> as an abstract array. The problematic value is of type <class
    'M'>` on the first call. Under `@classmethod` the same TypeError names `<class 'type'>`
    (jax issue 15727; `fixtures/argument_types/classmethod_over_jit.py`).

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
        yield from _classmethods(ctx)
        for func, entry in jitted_functions(ctx).items():
            frame = ctx.model.functions.get(func)
            if frame is None or frame.scope.kind != "class" or not plain_class(ctx, frame.scope.node, frame.scope.parent):
                continue
            if any(decorator_name(d) in ("staticmethod", "classmethod") for d in func.decorators):
                continue
            params = positional_params(func)
            if not params or params[0].name.value != "self":
                continue
            for app in entry.apps:
                if app.anchor not in func.decorators or app.jit.qualname not in OBJECT_TRACING_JITS:
                    continue
                spec = spec_of(app, ctx.model)
                # nnx.jit's own spec is not read: only a bare ``@nnx.jit`` is known to trace ``self``
                static = static_names(spec) if app.jit.qualname in TRACING_JITS else \
                    None if app.keywords else frozenset()
                if static is None or "self" in static:
                    continue
                fix = "make the class an nnx.Module (nnx.jit splits it into state), or nnx.jit a function " \
                    "of the model and batch instead" if app.jit.qualname not in TRACING_JITS else \
                    "jit a function of the arrays instead (or make the class a pytree)"
                yield Violation(app.anchor, (
                    f"jit on method `{func.name.value}` traces `self`, an object of a plain class: "
                    f"the first call raises TypeError{_counted_self(spec, params)}; {fix}"))


def _counted_self(spec, params: list[cst.Param]) -> str:
    """``static_argnums=(1,)`` on a method: the positions count ``self`` (jax#17158)."""
    nums = [n for n in (spec.static_argnums or ()) if 0 < n < len(params)]
    if not nums:
        return ""
    marked = ", ".join(f"`{params[n].name.value}`" for n in nums)
    return f" (static_argnums counts `self` as position 0, so {tuple(spec.static_argnums)} marks {marked})"


def _classmethods(ctx: FileContext) -> Iterator[Violation]:
    """``@classmethod`` over ``@jax.jit``: every call passes the class object first, at a
    traced position unless static_argnums names position 0."""
    for app in live_applications(ctx):
        func = app.target
        if not isinstance(func, cst.FunctionDef) or app.jit.qualname not in TRACING_JITS \
                or app.anchor not in func.decorators:
            continue
        frame = ctx.model.functions.get(func)
        names = [decorator_name(d) for d in func.decorators]
        index = func.decorators.index(app.anchor)
        if frame is None or frame.scope.kind != "class" or "classmethod" not in names[:index] \
                or any(names[index + 1:]):
            continue
        params = positional_params(func)
        first = params[0].name.value if params else None
        static_nums: tuple = ()
        static_names_: tuple = ()
        readable = True
        for arg in app.keywords:
            keyword = arg.keyword.value if arg.keyword is not None else ""
            if keyword in ("static_argnums", "static_argnames"):
                value = literal(arg.value, app.frame.scope, ctx.model, ints=keyword.endswith("nums"))
                if value is None:
                    readable = False
                elif keyword == "static_argnums":
                    static_nums = value if isinstance(value, tuple) else (value,)
                else:
                    static_names_ = value if isinstance(value, tuple) else (value,)
            elif arg.keyword is None:
                readable = False  # **options
        if not readable or 0 in static_nums or (first is not None and first in static_names_):
            continue
        lands = f"`{first}`" if first is not None else "`*args`"
        yield Violation(app.anchor, (
            f"jit under @classmethod on `{func.name.value}` traces the class object, passed first "
            f"(into {lands}): the first call raises TypeError (a type is not a valid JAX type); "
            f"make it static (static_argnums=0, with the other static arguments) or jit a "
            f"staticmethod or module function"))
