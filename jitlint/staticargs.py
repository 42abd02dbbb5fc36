"""Static-argument specs of jitted functions, and how instances of a class hash.

``StaticArgSpec`` records, for one jitted function, what ``jax.jit`` would record: the
signature's parameters and the ``static_argnums`` / ``static_argnames`` / ``donate_*``
keywords, from every form (``@jax.jit``, ``@partial(jax.jit, ...)``, ``g = jax.jit(f, ...)``,
methods, ``equinox.filter_jit``).  ``effective_static`` infers the missing half exactly as
``jax._src.api_util.infer_argnums_and_argnames`` does, so call sites are judged as JAX judges
them.  ``ClassInfo`` says whether instances of a class can be static arguments (hashable by
value, by identity, or not at all).  What modules tell each other (summaries, the project
index) is in jitlint/project.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import libcst as cst

from jitlint.jaxfacts import (ARGUMENT_KEEPING_DECORATORS, PASS_THROUGH_WRAPPERS, SIGNATURE_KEEPING_JITS,
                              SIGNATURE_PRESERVING_TRANSFORMS)
from jitlint.jitnames import FILTERING_JIT_FUNCTIONS, PARTIAL_FUNCTIONS, JitApplication
from jitlint.semantic import Scope, SemanticModel
from jitlint.walk import iter_nodes

# jit-likes whose keywords are jax.jit's static_argnums / static_argnames / donate_*.
ARGNUM_JITS = frozenset({"jax.jit", "jax.experimental.pjit.pjit"})
# jit-likes that name the same keywords otherwise, and infer no argnames from argnums: pmap's
# ``static_broadcasted_argnums`` are hashed into its cache key as jit's static_argnums are
# (measured: an unhashable one raises the same ValueError), and keyword arguments are mapped.
RENAMED_SPEC_KEYWORDS = {
    "jax.pmap": {"static_broadcasted_argnums": "static_argnums", "donate_argnums": "donate_argnums"},
}
DATACLASS = frozenset({"dataclasses.dataclass"})
SPEC_KEYWORDS = ("static_argnums", "static_argnames", "donate_argnums", "donate_argnames")

# Class verdicts: how instances hash.
UNHASHABLE, VALUE, IDENTITY, UNKNOWN, INHERIT = "unhashable", "value", "identity", "unknown", "inherit"
# The class defines __hash__ but not __eq__: equality comes from the base (object's is identity,
# so two instances with equal hashes are still two cache keys), and it is hashable whatever the
# base says.  Resolved against the base by project.resolve_class.
HASH_ONLY = "hash-only"


# ---------------------------------------------------------------------------- specs
LIST_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse"})


@dataclass(frozen=True)
class StaticArgSpec:
    """How one jitted function treats its arguments.  Argnums are as written (may be negative)."""

    name: str
    jit: str  # qualified name of the jit-like wrapper
    positional: tuple[str, ...] = ()  # positional parameters, in order (self included)
    posonly: int = 0  # how many leading positional parameters are positional-only
    kwonly: tuple[str, ...] = ()
    varargs: bool = False
    varkw: bool = False
    static_argnums: Optional[tuple[int, ...]] = None  # None: not given
    static_argnames: Optional[tuple[str, ...]] = None
    donate_argnums: Optional[tuple[int, ...]] = None
    donate_argnames: Optional[tuple[str, ...]] = None
    readable: bool = True  # every spec keyword was a literal we could read
    signature_known: bool = True  # no decorator under the jit that may change the signature
    method: bool = False  # a function defined in a class body (called as obj.name: self shifts)
    bound: bool = False  # jit of a bound method (``jax.jit(self.fit)``): argnum 0 follows ``self``
    via: str = ""  # the known wrapper the code calls, when it behaves as ``jit`` (jitnames.JitRef.via)

    @property
    def filtering(self) -> bool:
        """equinox.filter_jit: every non-array argument is static."""
        return self.jit in FILTERING_JIT_FUNCTIONS

    @property
    def checkable(self) -> bool:
        """Whether call sites can be mapped onto static positions.  Under equinox's filtering
        every argument of the call is judged by its value, so a decorator under the jit that
        hides the signature (``@eqx.debug.assert_max_traces``) changes nothing there."""
        if self.filtering:
            return self.readable
        return self.readable and self.signature_known and (
            self.jit in ARGNUM_JITS or self.jit in RENAMED_SPEC_KEYWORDS)

    @property
    def has_static_arguments(self) -> bool:
        """Whether some argument is static: only then does a call site have a value to check."""
        nums, names = self.effective_static()
        return self.filtering or bool(nums or names)

    def effective_static(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """(static_argnums, static_argnames) as jax.jit infers them from the signature."""
        return _infer(self, self.static_argnums, self.static_argnames)

    def effective_donated(self) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """(donate_argnums, donate_argnames) as jax.jit infers them from the signature."""
        return _infer(self, self.donate_argnums, self.donate_argnames)

    def static_positions(self, n_passed: int, exact: bool) -> set[int]:
        """The positions jax.jit treats as static in a call with ``n_passed`` positional
        arguments; a negative argnum counts from the end only when that count is exact (no
        ``*args`` in the call)."""
        argnums, _ = self.effective_static()
        return {n % n_passed if n < 0 else n for n in argnums if n >= 0 or (exact and n_passed)}

    def static_keyword(self, keyword: str) -> bool:
        return self.filtering or keyword in self.effective_static()[1]

    def param_at(self, index: int) -> Optional[str]:
        if 0 <= index < len(self.positional):
            return self.positional[index]
        return None


def _infer(spec: StaticArgSpec, argnums, argnames) -> tuple[tuple[int, ...], tuple[str, ...]]:
    if argnums is None and argnames is None:
        return (), ()
    if argnums is not None and argnames is not None:
        return argnums, argnames
    # Only POSITIONAL_OR_KEYWORD parameters take part in the inference.
    keyword_positions = [(i, name) for i, name in enumerate(spec.positional) if i >= spec.posonly]
    if argnums is None:
        return tuple(i for i, name in keyword_positions if name in argnames), argnames
    return argnums, tuple(name for i, name in keyword_positions if i in argnums)


def spec_errors(spec: StaticArgSpec) -> Iterator[tuple[str, str]]:
    """(keyword, message) for each ValueError jax.jit raises when applied (api_util.resolve_argnums)."""
    if not (spec.readable and spec.signature_known and spec.jit in ARGNUM_JITS):
        return
    n_positional = len(spec.positional)
    for keyword, argnums, argnames in (("static", spec.static_argnums, spec.static_argnames),
                                       ("donate", spec.donate_argnums, spec.donate_argnames)):
        nums, names = _infer(spec, argnums, argnames)
        if nums and not spec.varargs and (-min(nums) > n_positional or max(nums) >= n_positional):
            bad = [n for n in nums if n >= n_positional or -n > n_positional]
            yield f"{keyword}_argnums", (
                f"{keyword}_argnums={_show(nums)} but `{spec.name}` takes {n_positional} positional "
                f"argument{'s' if n_positional != 1 else ''} ({_params(spec)}): position {bad[0]} "
                f"does not exist, so jax.jit raises ValueError when applied; "
                f"use an index below {n_positional} or {keyword}_argnames")
        posonly = set(spec.positional[:spec.posonly])
        if names and posonly & set(names):
            bad_name = sorted(posonly & set(names))[0]
            yield f"{keyword}_argnames", (
                f"{keyword}_argnames names `{bad_name}`, a positional-only parameter of "
                f"`{spec.name}`, so jax.jit raises ValueError when applied; "
                f"use {keyword}_argnums={spec.positional.index(bad_name)}")
        elif names and not spec.varkw:
            valid = set(spec.positional[spec.posonly:]) | set(spec.kwonly)
            missing = sorted(set(names) - valid)
            if missing:
                yield f"{keyword}_argnames", (
                    f"{keyword}_argnames names `{missing[0]}`, which is not a parameter of "
                    f"`{spec.name}` ({_params(spec)}), so jax.jit raises ValueError when applied; "
                    f"name one of its parameters")


def _show(nums: tuple[int, ...]) -> str:
    return str(nums[0]) if len(nums) == 1 else str(tuple(nums))


def _params(spec: StaticArgSpec) -> str:
    names = list(spec.positional) + [f"*, {n}" if i == 0 else n for i, n in enumerate(spec.kwonly)]
    return ", ".join(names) if names else "no parameters"


def spec_of(app: JitApplication, model: SemanticModel,
            bound_method: Optional[cst.FunctionDef] = None) -> Optional[StaticArgSpec]:
    """The spec of one jit application, when its target is a ``def`` or a lambda this module
    shows (``jax.jit(lambda x, n: ..., static_argnums=1)``, or a name bound once to one), or
    ``bound_method``, the method def that the target ``obj.method`` binds (its ``self`` is bound
    already, so argnum 0 is the parameter after it)."""
    function = bound_method or target_def(app, model)
    if function is None:
        return None
    jit = app.jit.qualname
    signature_known = True
    method = False
    if isinstance(app.target, cst.FunctionDef):
        frame = model.functions[function]
        names = [_decorator_name(d) for d in function.decorators]
        index = next(i for i, d in enumerate(function.decorators) if d is app.anchor)
        if not all(signature_kept(d, model, frame.scope) for d in function.decorators[index + 1:]):
            signature_known = False  # decorators applied before the jit (jax.grad keeps it)
        if any(name != "staticmethod" and decorator_qualname(d, model, frame.scope) not in PASS_THROUGH_WRAPPERS
               for name, d in zip(names[:index], function.decorators[:index])):
            signature_known = False  # wrapped again after the jit: calls do not reach it directly
        method = frame.scope.kind == "class" and "staticmethod" not in names
        if "classmethod" in names:
            return None
    elif isinstance(function, cst.FunctionDef) and function.decorators:
        scope = model.functions[function].scope
        # ``jax.jit(Cls.fn)`` of a @staticmethod: the function as written
        signature_known = all(_decorator_name(d) == "staticmethod" or signature_kept(d, model, scope)
                              for d in function.decorators)
    params = function.params
    positional = tuple(p.name.value for p in (*params.posonly_params, *params.params))
    posonly = len(params.posonly_params)
    if bound_method is not None:
        positional, posonly = positional[1:], max(posonly - 1, 0)
    values, readable = spec_keyword_values(app, model)
    return StaticArgSpec(
        name=function.name.value if isinstance(function, cst.FunctionDef) else
        app.target.value if isinstance(app.target, cst.Name) else "<lambda>",
        jit=jit,
        via=app.jit.via,
        positional=positional,
        posonly=posonly,
        kwonly=tuple(p.name.value for p in params.kwonly_params),
        varargs=isinstance(params.star_arg, cst.Param),
        varkw=params.star_kwarg is not None,
        static_argnums=values.get("static_argnums"),  # type: ignore[arg-type]
        static_argnames=values.get("static_argnames"),  # type: ignore[arg-type]
        donate_argnums=values.get("donate_argnums"),  # type: ignore[arg-type]
        donate_argnames=values.get("donate_argnames"),  # type: ignore[arg-type]
        readable=readable,
        signature_known=signature_known,
        method=method,
        bound=bound_method is not None,
    )


def spec_keyword_values(app: JitApplication, model: SemanticModel) -> tuple[dict[str, object], bool]:
    """The literal values of the application's static and donate keywords, by jax.jit's names,
    and whether every one of them could be read."""
    values: dict[str, object] = {}
    renamed = RENAMED_SPEC_KEYWORDS.get(app.jit.qualname)
    if renamed is not None:
        values.update(static_argnames=(), donate_argnames=())  # nothing is inferred by name
    readable = True
    for arg in app.keywords:
        keyword = arg.keyword.value if arg.keyword is not None else ""
        if renamed is not None:
            keyword = renamed.get(keyword, "")
        if keyword in SPEC_KEYWORDS:
            value = literal(arg.value, app.frame.scope, model, ints=keyword.endswith("nums"))
            if value is None:
                readable = False
            else:
                values[keyword] = value
    return values, readable


def passthrough_decorator(decorator: cst.Decorator, model: SemanticModel, scope: Scope
                          ) -> Optional[tuple[str, bool]]:
    """A decorator def of this module that returns a wrapper calling the function it decorates
    with all of its own arguments (``def timed(fn): def wrapper(*args, **kwargs): ...
    return fn(*args, **kwargs)`` ... ``return wrapper``): its name, and whether the wrapper
    keeps the function's signature (``@functools.wraps(fn)``: jit reads the signature through
    ``__wrapped__``; without it jit sees ``(*args, **kwargs)``).  Its other parameters have
    defaults (``def named_scope(fn, name=None)`` used bare).  None for anything else."""
    expr = decorator.decorator
    if not isinstance(expr, cst.Name):
        return None
    binding = model.single_binding(expr.value, scope)
    outer = binding.node if binding is not None and binding.kind == "def" else None
    if not isinstance(outer, cst.FunctionDef) or outer.decorators or not outer.params.params \
            or any(p.default is None for p in outer.params.params[1:]) \
            or isinstance(outer.params.star_arg, cst.Param) or outer.params.kwonly_params \
            or not isinstance(outer.body, cst.IndentedBlock):
        return None
    fn = outer.params.params[0].name.value
    statements = outer.body.body
    wrappers = [s for s in statements if isinstance(s, cst.FunctionDef)]
    last = statements[-1] if statements else None
    if len(wrappers) != 1 or not (isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1
                                  and isinstance(last.body[0], cst.Return)
                                  and isinstance(last.body[0].value, cst.Name)
                                  and last.body[0].value.value == wrappers[0].name.value):
        return None
    wrapper = wrappers[0]
    params = wrapper.params
    if params.params or params.posonly_params or params.kwonly_params or not isinstance(params.star_arg, cst.Param) \
            or params.star_kwarg is None:
        return None
    forwards = (params.star_arg.name.value, params.star_kwarg.name.value)
    if not any(isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == fn
               and [(a.star, a.value.value if isinstance(a.value, cst.Name) else None) for a in node.args]
               == [("*", forwards[0]), ("**", forwards[1])] for node in iter_nodes(wrapper.body)):
        return None
    wrapper_scope = model.scope_of.get(wrapper, scope)
    keeps = any(isinstance(d.decorator, cst.Call) and model.qualified_name(d.decorator.func, wrapper_scope)
                == "functools.wraps" for d in wrapper.decorators)
    return outer.name.value, keeps


def signature_kept(decorator: cst.Decorator, model: SemanticModel, scope: Scope) -> bool:
    """Under a jit, ``decorator`` leaves the signature jit sees as the function's own
    (``@jax.grad``, or ``@partial(jnp.vectorize, signature=...)``)."""
    expr = decorator.decorator
    if isinstance(expr, cst.Call) and expr.args and expr.args[0].keyword is None \
            and model.qualified_name(expr.func, scope) in PARTIAL_FUNCTIONS:
        expr = expr.args[0].value
    if model.qualified_name(expr, scope) in SIGNATURE_PRESERVING_TRANSFORMS | ARGUMENT_KEEPING_DECORATORS \
            | SIGNATURE_KEEPING_JITS:
        return True
    passing = passthrough_decorator(decorator, model, scope)
    return passing is not None and passing[1]


def decorator_qualname(decorator: cst.Decorator, model: SemanticModel, scope: Scope) -> Optional[str]:
    """``@chex.chexify`` and ``@chex.chexify(async_check=False)`` alike."""
    expr = decorator.decorator
    return model.qualified_name(expr.func if isinstance(expr, cst.Call) else expr, scope)


def target_def(app: JitApplication, model: SemanticModel) -> Optional[cst.FunctionDef | cst.Lambda]:
    """The def or lambda a jit application wraps: the decorated def, a lambda written in the
    call, or what the name given to it is bound to (a def, or one assignment of a lambda)."""
    if isinstance(app.target, (cst.FunctionDef, cst.Lambda)):
        return app.target
    if isinstance(app.target, cst.Name):
        bindings = model.bindings_at(app.target, app.frame.scope)
        for binding in bindings:
            if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
                return binding.node
        if len(bindings) == 1 and bindings[0].kind == "assign" and isinstance(bindings[0].value, cst.Lambda):
            return bindings[0].value
        aliased = model.through_aliases(bindings[0]) if len(bindings) == 1 else None
        if aliased is not None and aliased.kind == "def" and isinstance(aliased.node, cst.FunctionDef):
            return aliased.node  # ``ljE = potential_fn`` then ``jit(ljE)``
    if isinstance(app.target, cst.Attribute) and isinstance(app.target.value, cst.Name):
        # ``jax.jit(Solver.solve, static_argnums=(0, 2))``: the function as the class holds
        # it, ``self`` its first parameter (a staticmethod: as written)
        binding = model.single_binding(app.target.value.value, app.frame.scope)
        cls = binding.node if binding is not None and binding.kind == "class" else None
        if cls is None and binding is not None and binding.kind == "param" and binding.name == "self" \
                and binding.scope.node in model.functions:
            # ``jax.jit(self._step)`` of a ``@staticmethod``: the def as written, every parameter its own
            owner = model.functions[binding.scope.node].scope.node  # type: ignore[index]
            cls = owner if isinstance(owner, cst.ClassDef) else None
        body = cls.body.body if isinstance(cls, cst.ClassDef) and isinstance(cls.body, cst.IndentedBlock) else ()
        for statement in body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == app.target.attr.value \
                    and all(_decorator_name(d) == "staticmethod" for d in statement.decorators):
                return statement
    return None


def _decorator_name(decorator: cst.Decorator) -> str:
    expr = decorator.decorator
    if isinstance(expr, cst.Call):
        expr = expr.func
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    return "?"


def literal(expr: cst.BaseExpression, scope: Scope, model: SemanticModel, ints: bool,
             depth: int = 0):
    """An int / tuple of ints (ints=True) or a str / tuple of str, as jax normalises them."""
    if depth > 3:
        return None
    if isinstance(expr, cst.Name):
        if expr.value == "None":
            return None
        binding = model.single_binding(expr.value, scope)
        if binding is not None and binding.kind == "assign" and binding.value is not None:
            if isinstance(binding.value, cst.List) and _mutated(expr.value, binding.scope.node):
                return None  # ``names = []`` then ``names.append(...)``: built at run time
            return literal(binding.value, binding.scope, model, ints, depth + 1)
        return None
    single = _scalar(expr, ints)
    if single is not None:
        return (single,)
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        items = []
        for element in expr.elements:
            if isinstance(element, cst.StarredElement):
                return None
            value = _scalar(element.value, ints)
            if value is None:
                return None
            items.append(value)
        # jax takes any iterable (``static_argnames={"y"}``): a set's order is not the code's
        return tuple(sorted(set(items))) if isinstance(expr, cst.Set) else tuple(items)
    return None


def _mutated(name: str, scope_node: cst.CSTNode) -> bool:
    """Is the list bound to ``name`` changed in place anywhere in its scope?"""
    for node in iter_nodes(scope_node):
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                isinstance(node.func.value, cst.Name) and node.func.value.value == name and \
                node.func.attr.value in LIST_MUTATORS:
            return True
        if isinstance(node, cst.AugAssign) and isinstance(node.target, cst.Name) and node.target.value == name:
            return True
        if isinstance(node, (cst.Assign, cst.Del)):
            targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
            if any(isinstance(t, cst.Subscript) and isinstance(t.value, cst.Name) and t.value.value == name
                   for t in targets):
                return True
    return False


def _scalar(expr: cst.BaseExpression, ints: bool):
    if ints:
        if isinstance(expr, cst.Integer):
            return int(expr.evaluated_value)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus) \
                and isinstance(expr.expression, cst.Integer):
            return -int(expr.expression.evaluated_value)
        return None
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


# ---------------------------------------------------------------------------- classes
@dataclass(frozen=True)
class ClassInfo:
    """How instances of a class hash and compare.  verdict: unhashable | value | identity |
    unknown | inherit | hash-only."""

    name: str
    verdict: str
    base: Optional[str] = None  # for "inherit": the single base's qualified name
    # for "unhashable": "dataclass" (eq=True, not frozen) or "eq" (__eq__, no __hash__); for
    # "identity": "hash" when the class defines __hash__ but compares by identity
    why: str = ""


def class_info(cls: cst.ClassDef, scope: Scope, model: SemanticModel,
               module_name: Optional[str] = None) -> ClassInfo:
    """The class's own verdict.  ``base`` is the single base's qualified name as imported
    (relative for ``from . import Base``; project.summarize makes it absolute)."""
    name = cls.name.value
    if cls.keywords:  # metaclass=...: anything goes
        return ClassInfo(name, UNKNOWN)
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    defined: dict[str, str] = {}  # name -> "def" | "none" | "value"
    for statement in body:
        if isinstance(statement, cst.FunctionDef):
            defined[statement.name.value] = "def"
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            is_none = isinstance(small.value, cst.Name) and small.value.value == "None"
                            defined[target.target.value] = "none" if is_none else "value"
    if "__new__" in defined:
        return ClassInfo(name, UNKNOWN)
    dataclass_args: Optional[dict[str, bool]] = None
    for decorator in cls.decorators:
        expr = decorator.decorator
        call = expr if isinstance(expr, cst.Call) else None
        qualname = model.qualified_name(call.func if call else expr, scope)
        if qualname not in DATACLASS:
            return ClassInfo(name, UNKNOWN)  # another decorator may add __eq__/__hash__
        dataclass_args = {"eq": True, "frozen": False, "unsafe_hash": False}
        for arg in (call.args if call else ()):
            if arg.keyword is None:
                return ClassInfo(name, UNKNOWN)
            if arg.keyword.value in dataclass_args:
                if not (isinstance(arg.value, cst.Name) and arg.value.value in ("True", "False")):
                    return ClassInfo(name, UNKNOWN)
                dataclass_args[arg.keyword.value] = arg.value.value == "True"
    own, why = INHERIT, ""  # what the class body and decorator decide on their own
    if defined.get("__hash__") == "none":
        own, why = UNHASHABLE, "eq"
    elif defined.get("__hash__") in ("def", "value"):
        own = VALUE if "__eq__" in defined or dataclass_args is not None else HASH_ONLY
    elif dataclass_args is not None and dataclass_args["unsafe_hash"]:
        own = VALUE
    elif dataclass_args is not None and dataclass_args["eq"]:
        own, why = (VALUE, "") if dataclass_args["frozen"] else (UNHASHABLE, "dataclass")
    elif "__eq__" in defined:
        own, why = UNHASHABLE, "eq"  # __eq__ without __hash__ sets __hash__ = None
    bases = [arg for arg in cls.bases if not (isinstance(arg.value, cst.Name) and arg.value.value == "object")]
    if not bases:
        if own == HASH_ONLY:
            return ClassInfo(name, IDENTITY, why="hash")
        return ClassInfo(name, IDENTITY if own == INHERIT else own, why=why)
    # A base may bring a metaclass or __init_subclass__ that changes all this: the whole chain
    # must be resolvable within the linted tree, else the verdict is unknown.
    if len(bases) > 1 or bases[0].keyword is not None or bases[0].star:
        return ClassInfo(name, UNKNOWN)
    base = bases[0].value
    if isinstance(base, cst.Name):
        binding = model.single_binding(base.value, scope)
        if binding is not None and binding.kind == "class":
            return ClassInfo(name, own, f"{module_name or '?'}.{base.value}", why)
    qualname = model.qualified_name(base, scope)
    if qualname is None:
        return ClassInfo(name, UNKNOWN)
    return ClassInfo(name, own, qualname, why)
