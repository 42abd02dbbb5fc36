"""Every entry of jitlint.jaxfacts checked against the installed JAX: the table is what the
trace-time rules believe, so a JAX release that changes a fact must fail here, not in users'
findings."""

from __future__ import annotations

import inspect

import pytest

from jitlint.jaxfacts import (BOOLEAN_RESULT_FUNCTIONS, DATA_SIZED_METHODS, DATA_SIZED_OUTPUTS,
                              EAGER_LAX_FUNCTION_PARAMS, NUMPY_ARRAY_CONSTRUCTORS, STATIC_FIELD_MARKERS)

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
np = pytest.importorskip("numpy")

DATA = np.array([1, 0, 2])  # ints: valid for every entry (bincount, repeat counts, conditions)


def _resolve(qualname: str, root, prefix: str):
    obj = root
    for part in qualname.removeprefix(prefix).split("."):
        obj = getattr(obj, part)
    return obj


def _required_positional(function) -> int:
    params = inspect.signature(function).parameters.values()
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               and p.default is p.empty)


@pytest.mark.parametrize("qualname", sorted(DATA_SIZED_OUTPUTS))
def test_data_sized_output_raises_under_jit_without_its_size_keyword(qualname):
    fact = DATA_SIZED_OUTPUTS[qualname]
    function = _resolve(qualname, jnp, "jax.numpy.")
    count = _required_positional(function)
    if fact.max_positional is not None:
        assert count <= fact.max_positional
    for position, keyword in fact.data_params:
        assert position < max(count, 2)
        if keyword:
            assert keyword in inspect.signature(function).parameters, (qualname, keyword)
    assert fact.size_keyword in inspect.signature(function).parameters
    args = [jnp.asarray(DATA)] * count
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda *a: function(*a))(*args)
    # With the size keyword (an upper bound), the same call traces and runs.
    sized = jax.jit(lambda *a: function(*a, **{fact.size_keyword: 3}))(*args)
    jax.block_until_ready(sized)


@pytest.mark.parametrize("method", sorted(DATA_SIZED_METHODS))
def test_data_sized_method_raises_under_jit_without_its_size_keyword(method):
    keyword = DATA_SIZED_METHODS[method]
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda x: getattr(x, method)())(jnp.asarray(DATA))
    jax.block_until_ready(jax.jit(lambda x: getattr(x, method)(**{keyword: 3}))(jnp.asarray(DATA)))


@pytest.mark.parametrize("qualname", sorted(BOOLEAN_RESULT_FUNCTIONS))
def test_boolean_result_function_gives_a_mask_that_raises_as_an_index(qualname):
    function = _resolve(qualname, jnp, "jax.numpy.")
    count = 1 if qualname.rpartition(".")[2] in (
        "isnan", "isinf", "isfinite", "isneginf", "isposinf", "signbit", "logical_not",
        "iscomplex", "isreal") else 2
    x = jnp.array([1.0, -1.0, 2.0])
    assert function(*[x] * count).dtype == jnp.bool_
    with pytest.raises(jax.errors.NonConcreteBooleanIndexError):
        jax.jit(lambda v: v[function(*[v] * count)])(x)


@pytest.mark.parametrize("qualname", sorted(NUMPY_ARRAY_CONSTRUCTORS))
def test_numpy_array_constructor_exists_and_returns_an_ndarray(qualname):
    function = _resolve(qualname, np, "numpy.")
    assert callable(function)
    examples = {"numpy.array": ([1, 2],), "numpy.asarray": ([1, 2],), "numpy.zeros": (2,),
                "numpy.ones": (2,), "numpy.arange": (3,), "numpy.linspace": (0, 1, 3),
                "numpy.eye": (2,), "numpy.full": (2, 1.0)}
    if qualname in examples:
        table = function(*examples[qualname])
        assert isinstance(table, np.ndarray)
        with pytest.raises(jax.errors.TracerArrayConversionError):
            jax.jit(lambda i: table[i])(jnp.asarray(1))


# ---------------------------------------------------------------------------- changing statics
class _HashOnly:
    """Hashes by a constant, compares by identity: what the twins rule warns about."""

    def __init__(self, result):
        self.result = result

    def __call__(self, *args):
        return self.result(*args)

    def __hash__(self):
        return 0


def _compiles_of(run) -> int:
    from jax import monitoring

    events = []

    def listener(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            events.append(kwargs.get("fun_name"))

    monitoring.register_event_duration_secs_listener(listener)
    try:
        run()
    finally:
        monitoring.unregister_event_duration_listener(listener)
    return len(events)


_EAGER_CALLS = {  # how to call each entry eagerly with the function arguments given
    "jax.lax.scan": (lambda f: jax.lax.scan(f, 0, jnp.arange(3)), lambda c, x: (c + x, c)),
    "jax.lax.fori_loop": (lambda f: jax.lax.fori_loop(0, 3, f, 0), lambda i, c: c + i),
    "jax.lax.while_loop": (lambda cond, body: jax.lax.while_loop(cond, body, 0),
                           lambda c: c < 3, lambda c: c + 1),
    "jax.lax.cond": (lambda t, f: jax.lax.cond(True, t, f, 1), lambda x: x + 1, lambda x: x - 1),
}


@pytest.mark.parametrize("qualname", sorted(EAGER_LAX_FUNCTION_PARAMS))
def test_eager_lax_function_argument_keys_the_compile_cache_by_equality(qualname):
    function = _resolve(qualname, jax, "jax.")
    parameters = list(inspect.signature(function).parameters)
    for position, keyword in EAGER_LAX_FUNCTION_PARAMS[qualname]:
        assert parameters[position] == keyword, (qualname, position, keyword)
    call, *bodies = _EAGER_CALLS[qualname]
    same = [_HashOnly(body) for body in bodies]
    assert _compiles_of(lambda: call(*same)) >= 1
    assert _compiles_of(lambda: call(*same)) == 0  # the same objects: the cached program
    # new objects with equal hashes but identity equality: compiled again
    assert _compiles_of(lambda: call(*[_HashOnly(body) for body in bodies])) >= 1


@pytest.mark.parametrize("qualname", sorted(STATIC_FIELD_MARKERS))
def test_static_field_marker_puts_an_array_in_the_metadata(qualname):
    if qualname.startswith("equinox."):
        eqx = pytest.importorskip("equinox")
        marker = _resolve(qualname, eqx, "equinox.")
        keyword = STATIC_FIELD_MARKERS[qualname]

        class Holder(eqx.Module):
            table: object = marker(**({keyword[0]: keyword[1]} if keyword else {}))
    else:
        struct = pytest.importorskip("flax.struct")
        marker = _resolve(qualname, struct, "flax.struct.")
        keyword = STATIC_FIELD_MARKERS[qualname]
        assert keyword is not None

        @struct.dataclass
        class Holder:
            table: object = marker(**{keyword[0]: keyword[1]})
    with pytest.warns(UserWarning) if qualname.startswith("equinox.") else _no_warning():
        first, second = Holder(table=jnp.arange(3.0)), Holder(table=jnp.arange(3.0) + 1)
    assert jax.tree_util.tree_leaves(first) == []  # the array is metadata, not a leaf
    lookup = jax.jit(lambda holder: 1.0)
    lookup(first)
    with pytest.raises(ValueError, match="metadata fields"):
        lookup(second)


def _no_warning():
    import contextlib

    return contextlib.nullcontext()
