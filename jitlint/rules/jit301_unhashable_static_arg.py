from functools import cached_property
from typing import Iterator, NamedTuple, Optional

import libcst as cst

from jitlint.walk import own_nodes, source_text as _code
from jitlint.rule import FileContext, Rule, Violation
from jitlint.rules._context import live_applications
from jitlint.rules._module_fields import ARRAY, instance_uses
from jitlint.rules._traced import needs_python_value, tracer_uses
from jitlint.rules._static import (ARRAY_DATA_FIXES, all_static_uses, array_hashing_bound_methods,
                                   array_hashing_elements, array_hashing_object, forwarded_static_uses,
                                   hashed_function_arguments, reads_shifted_meant_param, shifted_static_argnums, specs, static_array_params,
                                   static_receivers,
                                   static_marking, transformed_static_uses, unhashable, unhashable_callables,
                                   unhashable_receiver)
from jitlint.jaxfacts import TRACING_CALLS
from jitlint.staticargs import ARGNUM_JITS, StaticArgSpec


class UnhashableStaticArg(Rule):
    """
    ## What it does
    Flags an unhashable value passed at a static position (`static_argnums` /
    `static_argnames`, resolved against the signature as `jax.jit` does; `jax.pmap`'s
    `static_broadcasted_argnums`, positional only) of a jitted function
    defined in this module or imported from another linted module (also a jitted method called
    on an instance, `lens.model(source, lens_light)`, where `static_argnums` counts `self`:
    herculens 8175191): list, dict and set literals
    and comprehensions, `list(...)`/`dict(...)`/`set(...)`, `bytearray(...)`, `slice(...)`,
    `vars(args)` (a dict), `sorted(...)` (a list),
    an array's `.tolist()` (`jaxfacts.LIST_RETURNING_METHODS`; bonsai PR 170),
    a jax Array's method result (`x.mean()` is a 0-d Array: `jaxfacts.ARRAY_METHODS`),
    `np.array`/`jnp.array`/`jnp.zeros`-style arrays, tuples containing any of these (also a
    shallow `tuple(rules)` / `frozenset(...)` of a list of lists, maxdiffusion de45665), instances of
    non-frozen `@dataclass` classes (eq=True sets `__hash__` to None) or of classes defining
    `__eq__` without `__hash__` (classes resolved within the linted tree), a slice of an array
    (`x[:, None]`), an optimizer state (`tx.init(params)` of a stateful optax optimizer,
    `opt_init(params)` from `jax.example_libraries.optimizers`: jaxfacts.OPTIMIZER_STATE_INITS,
    ctd#15), and a variable when
    every definition reaching the read is one of these (flow-sensitive: `x = [0]` twice is
    still a list; `x = tuple(x)` before the call is fine; an output of a jitted function on
    any path to the call, outside loops, is an array: `epsilon = decaying_epsilon(...)` under
    `if not eval_mode:`, dopamine-style exploration). Also any `jax.numpy` / `jax.random`
    result (a jax Array: `jnp.sum(x > 0)`), arithmetic on or a comparison of an array (a
    boolean mask, `np.arange(n) < k`: the advice is to pass the bound and build the mask inside,
    as a traced mask cannot index), an instance of a frozen or `unsafe_hash=True` dataclass or an
    `equinox.Module` (both hash their fields) given a list, dict, set or array field, the static
    half of `eqx.partition(model, ...)` when a field of `model` is a list, dict or set, and the
    static `self` of a jitted method (`static_argnums=0`) when the class is a non-frozen
    `@dataclass` or an `equinox.Module` made with an array or container field (reported where
    `self` is marked static, or at the `return` of a `__hash__` the class writes itself over
    such a field: that is where the fix goes; the first call that raises is the evidence). Also inside
    traced code (a jitted body, or a helper it calls): the call raises while tracing too.
    Also `jax.jit(obj)` of a callable instance of such an unhashable class: jit hashes the
    function it wraps (jax#17197: `TypeError: unhashable type` at the first call; with
    `@dataclass(eq=False)` it hashes by identity and runs, `frozen=True` hashes the array
    fields and raises too). Likewise `jax.jit(model.forecast)` of a method bound to an
    `equinox.Module` holding arrays (an `eqx.nn` layer, or a module of this file with an array
    field): equinox makes the bound method a pytree holding the module, and its hash covers the
    arrays (measured: TypeError at the first call; `eqx.filter_jit(model.forecast)` runs, and
    so does a module holding only ints).
    Also an `equinox.Module` or `flax.struct` dataclass whose field marked static
    (`eqx.field(static=True)`, `struct.field(pytree_node=False)`: the markers in
    `jitlint/jaxfacts.py`) holds an array, passed to any jitted function (a static field is
    pytree metadata for every jit) where a second instance can arrive: made in a loop or per
    call of a repeated function, or another instance passed to the same function earlier.
    Fields built in `__init__` count (`self.layers = [...]`), and `jax.grad`-style transforms
    under the jit keep the signature the static positions refer to
    (`jaxfacts.SIGNATURE_PRESERVING_TRANSFORMS`). Also objects JAX hashes that are not static
    arguments: the callable given to `jax.jit`, the branches of `lax.switch` / `lax.cond`
    and the functions of `lax.scan` / `lax.while_loop` (`jaxfacts.HASHED_FUNCTION_PARAMS`,
    eager or traced) when they are equinox Modules whose
    hash covers arrays (the layers of `jaxfacts.ARRAY_HASHING_OBJECTS`, or this module's
    Module made with an array or container field), through names and `self.attr` fields; and
    such a library layer at a static position. Also a transform's tracer landing on a static
    position: `jax.vmap(functools.partial(f, a, b))(xs)` maps `xs` onto `f`'s third parameter
    (`jax.vmap` / `jax.pmap` by `in_axes`, `jax.grad` by `argnums`; `jax.vjp(f, x, a)`,
    `jax.linearize` and `jax.jvp(f, (x, a), ...)` trace every argument they run `f` with:
    `jaxfacts.TRACING_CALLS`), also of a jitted method bound to an instance
    (`jax.vmap(env.reset)(keys, params)`, the method defined in a base class). One finding per
    call names every static parameter it reaches.
    Also, once at the spec, a static parameter annotated as an array (`x: jax.Array`,
    `np.ndarray`, `Float[Array, "n"]`, or a module alias of one: `key: PRNGKey` with `PRNGKey =
    jax.Array`, jaxns ba5fd04's M-step; not `ArrayLike`, which admits scalars), and calls of a
    jit stored on the instance (`self.fit = jax.jit(self.fit, static_argnums=0)`, called as
    `gp.fit(x, y)`: a bound method's argnums start after `self`, so 0 is `x`, jax#5344), and
    the arguments of a thin wrapper that passes its parameter on to a static position
    (`def mesh_eval(f, x_limits): return _mesh_eval(f, x_limits)`, called with a list: jax#7561).

    Where the finding goes: when no call gives the parameter a hashable value, the values are
    array data (arrays, an optimizer state, a mapping transform's batch tracers) and the body
    needs no Python value of the parameter (it traces it just as well: `template.shape` stays
    static), the static marking is the mistake: one finding at `static_argnums` / `static_argnames` names the parameters,
    with the calls as related locations (gymnax 1b3b85d, craftax 5d45856). Otherwise it goes
    to the call (a parameter that other calls give ints is meant static).

    ## Why is this bad?
    Static arguments are hashed to look up the compilation cache. Measured on jax 0.10.2:
    the call raises `ValueError: Non-hashable static arguments are not supported. An error
    occurred while trying to hash an object of type <class 'list'>, [1, 2]. The error was:
    TypeError: unhashable type: 'list'` (same for dict, set, arrays, slices, bytearray,
    eq=True dataclasses, `__eq__` without `__hash__`, and tuples containing a list), also
    when the call runs inside another jit's trace.
    A default value of a static parameter is never hashed (measured: no error), so defaults
    are not flagged. Measured the same ValueError for a frozen dataclass with a list field, an
    `equinox.Module` with a dict or list field as the static half of `eqx.partition` (equinox
    0.13.8), a Module with an array field or a non-frozen `@dataclass` as a static `self`, and
    `jnp.sum(...)` (jax Arrays are unhashable); a Module with a tuple field is fine. `jax.pmap`
    raises the same ValueError for an `unsafe_hash=True` dataclass holding an array at a
    `static_broadcasted_argnums` position (a tuple field is fine). An array
    in a static Module field: the first call works, the call with a second instance raises
    `ValueError: Exception raised while checking equality of metadata fields of pytree`
    (under `eqx.filter_jit` and `jax.jit` alike, and for a flax.struct dataclass); the same
    instance again is fine. `jax.jit(eqx.nn.Linear(...))` raises `TypeError: unhashable type:
    'jaxlib._jax.ArrayImpl'` on the first call (equinox 0.13.8), and so does `lax.switch(i,
    [linear, ...], x)`, `lax.cond(p, module, f, x)` or `lax.scan(module, init, xs)`, eagerly
    and inside jit
    (`fixtures/argument_types/`). A vmap, pmap or grad tracer at a static position raises
    the same ValueError (`... BatchTracer ... unhashable`), through a positional
    `functools.partial` too; bound by keyword the static value stays outside the map and works.
    A traced value of an outer jit (a non-static parameter, or computed from one, also in a
    helper it calls) at a static position of a jitted function called there, directly or
    bound by a `functools.partial` made there (pcax#3), or handed in as an argument that every
    call fills with that jitted function (`def rk4(carry, dfx): dfx(t, x)` of a solver given
    `dfx=linear_2D`, also through the parameters of functions passing it on: ngclearn PR 87;
    one finding per function and static parameter), or reached through a class used as a
    namespace (`aj.render_label_selective(...)` with `render_label_selective =
    staticmethod(render_label_selective)` in the class body: JAXAtari 76cccc5, a digit count
    from `jax.lax.select`), raises the same ValueError while the
    outer jit traces; an outer static forwarded there is fine (`fixtures/static/`). So does
    `jax.jit(jax.vmap(solve, in_axes=(0, None, None)))` (a signature-keeping transform of a
    jitted function with static parameters, under a jit with no static spec of its own) when a
    call passes those positions: vmap hands the outer jit's tracers on (adam_core PR 118,
    measured; with `static_argnums=(1, 2)` on the outer jit, or the statics left at their
    defaults, it runs).

    ## Fix safety
    Pass a hashable equivalent: a tuple for a list, a frozenset for a set, a tuple of items or a
    frozen dataclass for a dict, `@dataclass(frozen=True)` for a config object. The jitted body
    may need small changes if it mutates the value (a static value should not be mutated).
    For an array in a static Module field, drop the static marking: the array is then traced.
    """

    code = "JIT301"
    separate_findings = True  # each finding has its own --fix edit
    name = "unhashable-static-arg"
    summary = "an unhashable value at a static argument position raises ValueError at call time"
    severity = "error"

    INVALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames="axes")
        def total(x, axes):
            return x.sum(axis=axes)

        total(jnp.ones((2, 3)), axes=[0, 1])
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames="axes")
        def total(x, axes):
            return x.sum(axis=axes)

        total(jnp.ones((2, 3)), axes=(0, 1))
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        shifted = {id(found.spec) for found in shifted_static_argnums(ctx)}  # JIT709's
        array_params = [found for found in static_array_params(ctx) if id(found[1]) not in shifted]
        reported = {(id(spec), p.name.value) for _, spec, params in array_params for p in params}
        mismarked = _Mismarked(ctx)
        passed_on = set()  # reported at the wrapper's call: not again where the wrapper passes it on
        passing: list[tuple] = []  # (use, finding), reported once every spec-level mistake is known
        for use in (*forwarded_static_uses(ctx), *all_static_uses(ctx)):
            if use.spec.filtering or (id(use.spec), use.param) in reported or id(use.spec) in shifted:
                continue  # equinox hashes no container; a static array parameter is reported at its spec
            if reads_shifted_meant_param(ctx, use.arg):
                continue
            wrapper = use.site.frame.enclosing_function()
            if not use.via and wrapper is not None and (id(use.spec), use.param, wrapper.name.value) in passed_on:
                continue
            found = unhashable(ctx, use.value, use.scope)
            if found is not None and use.via:
                passed_on.add((id(use.spec), use.param, use.via))
            if found is not None and found[1] in ARRAY_DATA_FIXES and not use.via \
                    and mismarked.add(_MismarkedUse(use.spec, use.param, use.site.node, use.arg, found[0])):
                continue
            if found is not None:
                what, fix = found
                passing.append((use, Violation(use.arg, (
                    f"{use.where()} is {what}; it is unhashable, so the call raises ValueError "
                    f"(non-hashable static argument); {fix}"))))
        for use, violation in passing:
            if use.via and (id(use.spec), use.param) in mismarked.marked():
                continue  # the static marking is the mistake, reported once at the spec
            yield violation
        receivers_reported = set()
        for receiver in static_receivers(ctx):
            found = unhashable_receiver(ctx, receiver)
            name = f"{receiver.cls.name.value}.{receiver.method}"
            if found is not None and (name, found) not in receivers_reported:
                # one finding per cause, where the method marks ``self`` static; the first call
                # that raises is the evidence
                receivers_reported.add((name, found))
                what, fix = found
                yield Violation(_own_hash(receiver.cls) or receiver.marking, (
                    f"`{name}` is jitted with a static `self`, which is {what}; it is unhashable, "
                    f"so `{_code(receiver.site.node)}` raises ValueError (non-hashable static "
                    f"argument); {fix}"),
                    related=((receiver.receiver, "the call that raises"),),
                    repeated_at=receiver.receiver, runs_at_repeat=True)
        declared_reported = set()
        for use in instance_uses(ctx):
            problem = use.problem
            if problem.kind != ARRAY:
                continue
            related = ((problem.value, f"the array stored in `{problem.field}`"),)
            if problem.declared is not None:
                # a registered pytree's own metadata: reported once, where it is declared
                if id(problem.declared) in declared_reported:
                    continue
                declared_reported.add(id(problem.declared))
                related += ((use.arg, f"an instance passed to `{use.callee}`"),)
            fix = f"{problem.fix or f'drop the static marking of `{problem.field}`'} (an array field is traced)"
            if problem.declared is not None:
                yield Violation(problem.declared, (
                    f"`{problem.cls}` puts `{problem.field}` in its pytree metadata, which jit keeps in "
                    f"the cache key and compares with ==, and it holds {problem.what}: a `{problem.cls}` "
                    f"instance made {use.when} is passed to `{use.callee}`, and comparing two "
                    f"instances' arrays raises ValueError on the call after the first; {fix}"),
                    related=related)
                continue
            yield Violation(use.arg, (
                f"a `{problem.cls}` instance made {use.when} is passed to `{use.callee}`, and its "
                f"static field `{problem.field}` holds {problem.what}: a static field is part of the "
                f"cache key, and comparing two instances' arrays raises ValueError on the "
                f"call after the first; {fix}"), related=related)
        for app, cls, why in unhashable_callables(ctx):
            what, fix = (("a non-frozen @dataclass (eq=True sets __hash__ to None)",
                          "declare it @dataclass(eq=False), which hashes by identity (frozen=True would "
                          "hash its array fields, which raises too)") if why == "dataclass" else
                         ("a class that defines __eq__ without __hash__", f"define `{cls}.__hash__`"))
            yield Violation(app.call, (
                f"jax.jit wraps `{_code(app.target)}`, an instance of `{cls}`, {what}: jit hashes the "
                f"function it wraps, so the first call raises TypeError (unhashable type: '{cls}'); "
                f"{fix}, or jit a function that takes it as an argument"))
        for app, what in array_hashing_bound_methods(ctx):
            yield Violation(app.call, (
                f"jax.jit wraps `{_code(app.target)}`, a method bound to {what}: equinox makes the "
                f"bound method a pytree holding the module, and jit hashes the function it wraps, "
                f"so the first call raises TypeError (unhashable type: an array); use "
                f"eqx.filter_jit({_code(app.target)}), or jit a function that takes the module as "
                f"an argument"))
        by_call: dict[int, list] = {}
        for use in transformed_static_uses(ctx):
            param = use.spec.param_at(use.position)
            # A mapped argument is array data, which cannot be static (unless a partial's
            # positionals pushed it onto the wrong parameter: the partial is the mistake); a
            # differentiated one may be a number the caller meant static (bound by keyword).
            mapped = TRACING_CALLS[use.transform].in_axes is not None and not use.bound
            if param is None or not mapped or not mismarked.add(
                    _MismarkedUse(use.spec, param, use.call, use.arg, f"`{use.transform}`'s tracers")):
                by_call.setdefault(id(use.call), []).append(use)
        yield from mismarked.violations()
        for uses in by_call.values():  # one finding per call: one fix
            first = uses[0]
            params = [use.spec.param_at(use.position) or f"*{use.position}" for use in uses]
            names = ", ".join(f"`{param}`" for param in params)
            bound = (f" after the {first.bound} argument{'s' if first.bound > 1 else ''} the "
                     f"`functools.partial` binds") if first.bound else ""
            keywords = ", ".join(f"{param}=..." for param in params)
            several = len(uses) > 1
            these, them = ("these arguments as tracers", "them") if several else ("this argument as a tracer", "it")
            yield Violation(first.arg, (
                f"`{first.transform}` passes {these} to parameter{'s' if several else ''} {names} of "
                f"jitted `{first.spec.name}`{bound}, which {'are' if several else 'is'} static: a tracer "
                f"is unhashable, so the call raises ValueError (non-hashable static argument); bind "
                f"the static value{'s' if several else ''} by keyword "
                f"(`functools.partial({_code(first.function)}, {keywords})`) or close over {them} "
                f"in a lambda that takes only the traced arguments"),
                related=tuple((use.arg, f"`{param}`") for use, param in zip(uses[1:], params[1:])))
        for app, spec, params in array_params:
            names = ", ".join(f"`{p.name.value}`" for p in params)
            annotations = ", ".join(sorted({cst.Module([]).code_for_node(p.annotation.annotation) for p in params}))
            yield Violation(app.anchor, (
                f"`{spec.name}` marks {names} static, annotated {annotations}: an array is unhashable, "
                f"so every call that passes one raises ValueError (non-hashable static argument); "
                f"leave {'them' if len(params) > 1 else 'it'} traced (take {'them' if len(params) > 1 else 'it'} "
                f"out of static_argnums / static_argnames)"))
        for tracer in tracer_uses(ctx):
            if tracer.kind == "static" and not reads_shifted_meant_param(ctx, tracer.node):
                yield Violation(tracer.node, tracer.message, related=tracer.related)
        yield from _hashed_objects(ctx)


def _hashed_objects(ctx: FileContext) -> Iterator[Violation]:
    """Objects JAX hashes that are not static arguments: the callable given to jax.jit, the
    function arguments of jaxfacts.HASHED_FUNCTION_PARAMS (lax.switch, cond, scan, ...)."""
    for app in live_applications(ctx):
        target = app.target
        if app.jit.qualname not in ARGNUM_JITS or app.call is None \
                or not isinstance(target, (cst.Name, cst.Attribute, cst.Call)):
            continue
        what = array_hashing_object(ctx, target, app.frame.scope)
        if what is not None:
            yield Violation(app.call, (
                f"jax.jit keys its cache on the function it wraps, and `{_code(target)}` is {what}: "
                f"the first call raises TypeError (unhashable type); use eqx.filter_jit, or jit a "
                f"function that takes the module as an argument"))
    for arg, callee, param, sequence, scope in hashed_function_arguments(ctx):
        what = (array_hashing_elements if sequence else array_hashing_object)(ctx, arg.value, scope)
        if what is not None:
            held = f"holds {what}" if sequence else f"is {what}"
            yield Violation(arg, (
                f"`{callee}` hashes `{param}` to cache the traced functions, and `{_code(arg.value)}` "
                f"{held}: the call raises TypeError (unhashable type), eagerly and under jit; "
                f"give it functions that take the module's arrays as operands (or close over "
                f"them: `lambda x, m=m: m(x)`), not the modules"))



class _MismarkedUse(NamedTuple):
    spec: StaticArgSpec
    param: str
    call: cst.Call
    arg: cst.CSTNode
    what: str  # "a jax Array", "`jax.vmap`'s tracers"


class _Mismarked:
    """Unhashable array data (arrays, an optimizer state, a mapping transform's tracers) at
    static parameters that the body would take traced just as well: the mistake is the static
    marking, so the finding goes to the jit's spec, once per jitted function, with the calls as
    evidence."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.apps = {id(spec): app for app, spec in specs(ctx)}
        self.found: dict[int, list[_MismarkedUse]] = {}

    @cached_property
    def given_hashable(self) -> set[tuple[int, str]]:
        """A parameter some call gives a hashable value is meant static: the odd call is the
        mistake (read only when an unhashable array reaches a static position)."""
        return {(id(use.spec), use.param) for use in all_static_uses(self.ctx)
                if unhashable(self.ctx, use.value, use.scope) is None}

    def add(self, use: _MismarkedUse) -> bool:
        """Record ``use`` when its spec is this file's, no call gives the parameter a hashable
        value and the body needs no Python value of it (else False: the call must pass a
        hashable value, and is reported itself)."""
        spec = use.spec
        if id(spec) not in self.apps or spec.filtering or (id(spec), use.param) in self.given_hashable \
                or needs_python_value(self.ctx, spec.name, use.param) is not False:
            return False
        self.found.setdefault(id(spec), []).append(use)
        return True

    def marked(self) -> set[tuple[int, str]]:
        """(spec id, parameter) of the static markings recorded as the mistake so far."""
        return {(key, use.param) for key, uses in self.found.items() for use in uses}

    def violations(self) -> Iterator[Violation]:
        for key, uses in self.found.items():
            spec = uses[0].spec
            params = list(dict.fromkeys(use.param for use in uses))
            whats = " and ".join(dict.fromkeys(use.what for use in uses))
            them = "them" if len(params) > 1 else "it"
            calls = len({id(use.call) for use in uses})
            quoted = f"`{_code(uses[0].call)}`"
            passing, raising = (f"{quoted} passes", "the call raises") if calls == 1 else \
                (f"{calls} calls pass (the first: {quoted})", "they raise")
            app = self.apps[key]
            yield Violation(static_marking(app), (
                f"`{spec.name}` marks {', '.join(f'`{p}`' for p in params)} static, but {passing} "
                f"{whats} there: an array or a tracer is unhashable, so {raising} ValueError "
                f"(non-hashable static argument); the body works with {them} traced: take {them} "
                f"out of static_argnums / static_argnames"),
                related=tuple((use.arg, f"passes `{use.param}`") for use in uses),
                repeated_at=uses[0].arg, runs_at_repeat=True)  # --confirm: the call raises there


def _own_hash(cls: cst.ClassDef) -> Optional[cst.CSTNode]:
    """The ``return`` of a ``__hash__`` the class writes itself (it hashes what cannot be
    hashed: the fix is there), else None (a generated hash: the fix is the static marking)."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    method = next((s for s in body if isinstance(s, cst.FunctionDef) and s.name.value == "__hash__"), None)
    if method is None:
        return None
    returns = [n for n in own_nodes(method.body) if isinstance(n, cst.Return)]
    return returns[0] if len(returns) == 1 else method.name
