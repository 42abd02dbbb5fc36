from typing import Iterator

from jitlint.rule import FileContext, Rule, Violation
from jitlint.walk import source_text as _code
from jitlint.jaxfacts import NON_JAX_RESULTS
from jitlint.rules._arguments import (ARRAY, CLASS, CONFIG, ENUM, FIELD, FLAG, FUNCTION, HALF, ITERATOR, LEAF, LIBRARY, MODULE, OBJECT, RESULT, STR,
                                      non_jax_value)
from jitlint.rules._static import StaticUse, array_leaf_uses, non_jax_traced_uses, shifted_static_argnums


class NonJaxTypeArgument(Rule):
    """
    ## What it does
    Flags a value that is not a valid JAX type passed at a traced (non-static) position of a
    function jitted with `jax.jit` (or pjit): a `str`, a Python iterable that is no pytree
    (`iter(xs)`, `zip`, `map`, `range`, a generator: `jaxfacts.ITERATOR_BUILTINS`), a class object (`cls` of a classmethod
    included), a function (a `def`, a lambda, a `functools.partial`, another jitted function,
    an activation of `jax.nn` / `flax.linen` or an elementwise `jax.numpy` function),
    an instance of a plain class of this module (no base, not registered as a pytree, in a
    module that registers no classes it finds at run time; `self` in its methods included), an instance of this module's flax.linen Module (a frozen
    dataclass, no pytree: `jaxfacts.NON_PYTREE_CLASS_BASES`), also a parameter every call of
    its module function passes one such value (`evaluate(model, ...)`; of a method, every call
    through an instance: `evaluator.evaluate(actor, state)`), a library object holding such a leaf (`eqx.nn.Lambda`,
    `eqx.nn.MLP`: `jitlint/jaxfacts.py`), an instance of this module's pytree class (a
    flax.struct or chex dataclass, an equinox Module, a NamedTuple: `jaxfacts.PYTREE_CLASS_*`)
    with a field annotated `str` and not marked static, a NumPy array of strings, bytes or
    objects (`np.array(["a", "b"])`, `np.asarray(labels)` of a list of str, `dtype=object`,
    `dtype="U5"`, `.astype(str)`), a `jax.Device` (`jax.devices()[0]`, `jax.local_devices()`), a
    Sharding, Mesh or PartitionSpec, an optax or `jax.example_libraries` optimizer (a NamedTuple
    of functions: `jaxfacts.NON_JAX_RESULTS`), a member of an `enum.Enum` class of this module,
    an instance of this module's NamedTuple or pytree dataclass built with one of these for a
    leaf field (`Optimizer(*optimizers.adam(1e-3))`), or a tuple, list or dict holding one of
    these (a dataset batch `{"image": ..., "id": np.array([b"..."])}`; silent when the module
    deletes or changes an entry of the dict, `del batch["id"]`). The jitted callable may also
    be one whose signature the file does not show (a factory's result, `jax.jit(make_kernel(f))`,
    or a library function) when the jit marks nothing static: every argument is traced then
    (nt#106). Also such a value at a parameter of a library call that traces every leaf of it
    as an array (`jaxfacts.ARRAY_LEAF_PARAMS`): a lax loop's initial carry (`lax.fori_loop(0,
    n, step, model)`), `lax.scan`'s `init` and `xs`, optimistix's `y0`, a jaxopt solver's
    `run(init_params)`; there the usual culprit is a whole equinox model, whose activations are
    functions, or the non-array half of `eqx.partition(model, eqx.is_array)` unpacked in the
    wrong order (`jaxfacts.PARTITIONS`; optimistix#56, equinox#376). And a model holding a layer
    whose Python flags are leaves it tests (`eqx.nn.Dropout`'s `inference`:
    `jaxfacts.FLAG_LEAF_OBJECTS`) at such a position: valid there, but the layer raises
    TracerBoolConversionError once it runs traced (equinox#681); not when every call of the layer
    in the model passes the flag itself (`self.dropout(x, key=key, inference=inference)`:
    `jaxfacts.FLAG_CALL_OVERRIDES`, tested). A name the loop rebinds from
    the jitted call's own output (`model = step(model, ...)`) is judged by its value before
    the loop: the later ones exist only after a call that succeeded.
    Values are followed through names (every definition that reaches the call must be one, or
    the call sits under `if isinstance(name, str):`),
    parameters annotated `str`, attributes of this module's classes, conditional expressions,
    the returns of this module's functions, and to jitted functions in other linted modules.
    Python scalars, None, arrays and pytrees (NamedTuples, registered dataclasses, flax and
    equinox modules of arrays, `jax.tree_util.Partial`) are valid and stay silent, and so does
    `eqx.filter_jit`, which keeps non-array leaves static. An instance of a plain class, or of a
    pytree class with a `str` field, is reported once, at the first call passing one: the fix is
    in the class.

    Where the finding goes: a class's problem is reported once, however many calls pass its
    instances. When the fix is one declaration of this module, the finding sits there, with
    the first call as a related location: the `str` field to mark static (interpax PR 77), the
    plain `@dataclass` to register as a pytree (jwave 108ce87). A bare class goes to the call.
    So does a plain `@dataclass` whose fields are all Python values (`n_layer: int`,
    `activation: str`, `Optional[float]`): a config, which code uses as Python values (`range`,
    `if`), so registering it would only move the error; the advice is to make it
    `@dataclass(frozen=True)` (a plain dataclass has `__hash__ = None` and cannot be static)
    and mark it static, or close over it (minGPT-reimplemented).

    ## Why is this bad?
    jit abstracts every non-static argument to an array. Measured on jax 0.10.2 (CPU): a str,
    a class, a function, a `functools.partial`, a jitted function, a plain object (a
    non-registered `@dataclass` too), `eqx.nn.Lambda` and `eqx.nn.MLP` (equinox 0.13.8), and
    a flax.struct / chex dataclass, equinox Module or NamedTuple holding a str field, a NumPy
    array of dtype str, bytes or object (jax#5228; a batch dict holding one, flax#1492), a
    `jax.Device` (jax#4416), a Sharding, Mesh or PartitionSpec, an `optax.adam(...)` or
    `optimizers.adam(...)` optimizer and a NamedTuple of its functions (jax#953), and an
    `enum.Enum` member, and a library function (`jax.nn.relu`, a `custom_jvp`; `jnp.tanh`) each
    raise `TypeError: Error interpreting argument to <function f> as an
    abstract array. The problematic value is of type <class 'str'>` on the call, before anything
    is traced (`fixtures/argument_types/`). An `IntEnum` member and `np.array(["1", "2"],
    dtype=float)` are valid. An `eqx.nn.MLP` as `lax.fori_loop`'s carry or jaxopt L-BFGS's
    initial point raises `TypeError: Argument '<custom_jvp ...>' ... is not a valid JAX type`;
    as optimistix's `y0`, `TypeError: Cannot determine dtype of <PjitFunction of silu>`; its
    array half works in all three. A model with an `eqx.nn.Dropout` passed to a `jax.jit` step
    that runs it raises `TracerBoolConversionError`, under `eqx.filter_jit` it trains.

    ## Fix safety
    Mark the parameter static (`static_argnames=("op",)`): each distinct value then compiles
    once, and it must be hashable. For a plain object, register its class as a pytree
    (`jax.tree_util.register_dataclass`) or pass its arrays; for an equinox model, use
    `eqx.filter_jit`; mark a str field of a pytree static (`eqx.field(static=True)`,
    `flax.struct.field(pytree_node=False)`).
    """

    code = "JIT807"
    name = "non-jax-type-argument"
    summary = ("a str, class, function, plain object, Device, optimizer or string array at a traced "
               "position of a jitted function raises TypeError")
    severity = "error"

    INVALID = [
        """
        import jax

        @jax.jit
        def combine(x, y, op):
            return x + y if op == "add" else x * y

        combine(1.0, 2.0, "add")
        """,
    ]
    VALID = [
        """
        from functools import partial

        import jax

        @partial(jax.jit, static_argnames=("op",))
        def combine(x, y, op):
            return x + y if op == "add" else x * y

        combine(1.0, 2.0, "add")
        """,
    ]

    def check(self, ctx: FileContext) -> Iterator[Violation]:
        class_causes: set[tuple[str, str]] = set()
        shifted = {(id(found.spec), param) for found in shifted_static_argnums(ctx) for param in found.meant}
        for use, found in non_jax_traced_uses(ctx):
            if (id(use.spec), use.param) in shifted:
                continue  # the spec's numbers point at other parameters: JIT709
            if found.kind == FLAG:
                yield Violation(use.arg, f"{use.where()} is {found.what}: jit traces those flags as arrays, so "
                                         f"the layer's `if` raises TracerBoolConversionError when the model runs; "
                                         f"{_FLAG_FIX}")
                continue
            if found.kind in (FIELD, OBJECT, CONFIG):
                # the fix is in the class (a static field, a pytree registration): one finding,
                # at the first call, however many calls pass its instances
                if (found.kind, found.name) in class_causes:
                    continue
                class_causes.add((found.kind, found.name))
            message = (f"{use.where()} is {found.what}, not a valid JAX type: jit traces every non-static "
                       f"argument as an array, so the call raises TypeError; {_fix(use, found.kind, found.name, found.what)}")
            if found.declared is not None:  # at the declaration the fix changes, the call as evidence
                yield Violation(found.declared, f"`{_code(use.site.node)}`: {message}",
                                related=((use.arg, "the call that passes it traced"),),
                                repeated_at=use.arg, runs_at_repeat=True)  # --confirm: it raises there
                continue
            yield Violation(use.arg, message)
        for use in array_leaf_uses(ctx):
            found = non_jax_value(ctx, use.value, use.scope)
            if found is not None and found.kind == FLAG:
                yield Violation(use.arg, f"{use.where()} is {found.what}: `{use.callee}` traces those flags as "
                                         f"arrays, so the layer's `if` raises TracerBoolConversionError when the "
                                         f"model runs inside; {_FLAG_FIX}")
            elif found is not None:
                yield Violation(use.arg, (
                    f"{use.where()} is {found.what}, not a valid JAX type: `{use.callee}` traces every "
                    f"leaf of it as an array, so the call raises TypeError; {_array_leaf_fix(found.kind)}"))


_FLAG_FIX = ("use eqx.filter_jit (it keeps non-array leaves static), or eqx.partition the model and "
             "pass its array half, closing over the rest")
_HALF_FIX = ("`eqx.partition` returns (the leaves the filter accepts, the rest): pass the first half, "
             "the arrays, and keep the rest static or closed over (`params, static = eqx.partition(...)`)")


def _array_leaf_fix(kind: str) -> str:
    if kind == HALF:
        return _HALF_FIX
    if kind == LIBRARY:
        return ("pass the model's array half (`params, static = eqx.partition(model, eqx.is_array)`) "
                "and rebuild the model inside with `eqx.combine(params, static)`")
    return "pass arrays only there, and close over the rest in the function"


def _fix(use: StaticUse, kind: str, name: str, found_what: str = "") -> str:
    static = f"static_argnums={use.position}" if use.param.startswith("*") \
        else f'static_argnames=("{use.param}",)'
    if kind == STR:
        return f"mark it static ({static}): each distinct string then compiles once"
    if kind == CLASS:
        return f"mark it static ({static}; a class hashes by identity), or do not pass it"
    if kind == FUNCTION:
        return (f"mark it static ({static}) or close over it in the jitted function; a "
                f"jax.tree_util.Partial is a pytree and may be passed traced")
    if kind == CONFIG:
        hashable = "" if "frozen" in found_what else f"make `{name}` a `@dataclass(frozen=True)` so it hashes, and "
        return (f"{hashable}mark it static ({static}): its values stay Python values and each distinct "
                f"config compiles once; or close over it")
    if kind == OBJECT:
        return (f"register `{name}` as a pytree (jax.tree_util.register_dataclass, or "
                f"register_pytree_node_class) or pass its arrays")
    if kind == FIELD:
        return (f"mark the field `{name}` static (eqx.field(static=True), "
                f"flax.struct.field(pytree_node=False)), or use eqx.filter_jit for an equinox Module")
    if kind == ARRAY:
        return ("jax has no string or object dtype: drop that entry before the call (or keep it "
                "beside the batch), or encode it as numbers (ids, one-hot) outside jit")
    if kind == RESULT:
        return f"mark it static ({static}): {NON_JAX_RESULTS[name].fix}"
    if kind == MODULE:
        return (f"mark it static ({static}: a Linen Module hashes by its attributes) or close over "
                f"it, and pass its variables traced")
    if kind == ENUM:
        return f"mark it static ({static}): an enum member hashes, so each member compiles once"
    if kind == LEAF:
        return (f"mark it static ({static}) or close over it in the jitted function, or mark the "
                f"field static in `{name}` (a NamedTuple has no static fields)")
    if kind == HALF:
        return _HALF_FIX
    if kind == ITERATOR:
        return "pass a list or tuple of its items (`list(...)`), or an array (`jnp.asarray(list(...))`)"
    assert kind == LIBRARY
    return ("use eqx.filter_jit, which keeps non-array leaves static (or eqx.partition the model "
            "and pass its array half)")

