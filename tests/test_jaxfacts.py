"""Every entry of jitlint.jaxfacts checked against the installed JAX: the table is what the
trace-time rules believe, so a JAX release that changes a fact must fail here, not in users'
findings."""

from __future__ import annotations

import inspect

import pytest

from jitlint.jaxfacts import (BOOLEAN_RESULT_FUNCTIONS, DATA_SIZED_METHODS, DATA_SIZED_OUTPUTS,
                              EAGER_LAX_FUNCTION_PARAMS, FRAMEWORK_METHODS, FRESH_TRANSFORM_SPELLINGS,
                              FRESH_TRANSFORMS, NUMPY_ARRAY_CONSTRUCTORS, RAGGED_BATCHERS,
                              STATIC_FIELD_MARKERS)

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


def _fresh_transform_example(qualname: str):
    """``build()`` applies the transform to one module-level function the way a user would."""
    transform = _resolve(qualname, jax, "jax.")

    def loss(v):
        return jnp.sum(jnp.sin(v) ** 2)

    def custom_vjp():
        f = transform(loss)
        f.defvjp(lambda v: (loss(v), v), lambda v, g: (2.0 * g * v,))
        return f

    def custom_jvp():
        f = transform(loss)
        f.defjvp(lambda primals, tangents: (loss(primals[0]), jnp.sum(tangents[0])))
        return f

    P = jax.sharding.PartitionSpec
    builds = {
        "jax.custom_vjp": custom_vjp,
        "jax.custom_jvp": custom_jvp,
        "jax.custom_gradient": lambda: transform(lambda v: (loss(v), lambda g: (g * v,))),
        "jax.named_call": lambda: transform(loss, name="loss"),
        "jax.shard_map": lambda: transform(jnp.sin, mesh=jax.make_mesh((1,), ("i",)),
                                           in_specs=P(), out_specs=P()),
        "jax.vmap": lambda: transform(jnp.sin),
    }
    return builds.get(qualname, lambda: transform(loss))


def _compiles(run) -> int:
    """Executables JAX builds while ``run()`` runs (its backend-compile events)."""
    from jax import monitoring

    events = []

    def listen(event: str, duration: float, **kwargs) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            events.append(event)

    monitoring.register_event_duration_secs_listener(listen)
    try:
        run()
    finally:
        monitoring.unregister_event_duration_listener(listen)
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
    assert _compiles(lambda: call(*same)) >= 1
    assert _compiles(lambda: call(*same)) == 0  # the same objects: the cached program
    # new objects with equal hashes but identity equality: compiled again
    assert _compiles(lambda: call(*[_HashOnly(body) for body in bodies])) >= 1


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


@pytest.mark.parametrize("qualname", sorted(FRESH_TRANSFORMS))
def test_fresh_transform_jitted_per_step_compiles_every_step_and_once_when_built_once(qualname):
    """``jax.jit(T(f))`` per step compiles again each step; ``jax.jit`` of the object built
    once, even re-applied per step, compiles once."""
    from jax.experimental import checkify  # noqa: F401  (makes jax.experimental.checkify an attribute)

    x = jnp.arange(1.0, 4.0)
    build = _fresh_transform_example(qualname)
    jax.block_until_ready(x + 1.0)  # the eager add's own compile, out of the counts

    def per_step():
        for _ in range(3):
            jax.block_until_ready(jax.jit(build())(x))

    def built_once():
        built = build()
        for _ in range(3):
            jax.block_until_ready(jax.jit(built)(x))

    assert (_compiles(per_step), _compiles(built_once)) == (3, 1)

@pytest.mark.parametrize("spelling", sorted(FRESH_TRANSFORM_SPELLINGS))
def test_fresh_transform_spelling_is_that_transform(spelling):
    import importlib
    import warnings

    module, _, name = spelling.rpartition(".")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        obj = getattr(importlib.import_module(module), name)
    # jax.experimental.shard_map.shard_map is a deprecated shim around jax.shard_map
    assert obj.__name__ == _resolve(FRESH_TRANSFORM_SPELLINGS[spelling], jax, "jax.").__name__


@pytest.mark.parametrize("qualname", sorted(FRAMEWORK_METHODS))
def test_framework_method_is_bound_anew_on_every_access(qualname):
    import importlib

    module, _, name = qualname.rpartition(".")
    base = getattr(importlib.import_module(module), name)

    class Model(base):  # the simplest subclass a user writes
        def __call__(self, x):
            return x

    model = Model()
    for method in FRAMEWORK_METHODS[qualname]:
        assert inspect.ismethod(getattr(model, method)), method
        assert getattr(model, method) is not getattr(model, method), method


# ---------------------------------------------------------------------------- ragged batches
def _batches(qualname: str, size: int, length: int, drop: bool):
    """The batch lengths ``qualname`` makes from ``length`` rows in batches of ``size`` (for
    array_split: ``size`` chunks), asked to drop the remainder or not."""
    fact = RAGGED_BATCHERS[qualname]
    keywords = {fact.batch_size[1]: size}
    if drop:
        keywords[fact.drop_keyword] = True
    rows = np.ones((length, 2), dtype=np.float32)
    if qualname in ("numpy.array_split", "jax.numpy.array_split"):
        module = np if qualname.startswith("numpy.") else jnp
        return [len(chunk) for chunk in module.array_split(rows, **keywords)]
    if qualname == "torch.utils.data.DataLoader":
        torch = pytest.importorskip("torch")
        return [len(b) for b in torch.utils.data.DataLoader(torch.ones(length, 2), **keywords)]
    if qualname.startswith("tensorflow."):
        tf = pytest.importorskip("tensorflow")
        dataset = tf.data.Dataset.from_tensor_slices(rows)
        method = getattr(dataset, qualname.rsplit(".", 1)[1])
        return [len(b) for b in method(**keywords).as_numpy_iterator()]
    grain = pytest.importorskip("grain")
    if qualname.endswith(".Batch"):  # an operation of a DataLoader
        pygrain = pytest.importorskip("grain.python")
        sampler = pygrain.IndexSampler(num_records=length, shard_options=pygrain.NoSharding(),
                                       shuffle=False, num_epochs=1, seed=0)
        operation = _resolve(qualname, grain, "grain.")(**keywords)
        loader = pygrain.DataLoader(data_source=rows, sampler=sampler, operations=[operation])
        return [len(b) for b in loader]
    source = grain.MapDataset.source(rows)
    if qualname.startswith("grain.IterDataset"):
        source = source.to_iter_dataset()
    return [len(b) for b in source.batch(**keywords)]


@pytest.mark.parametrize("qualname", sorted(RAGGED_BATCHERS))
def test_ragged_batcher_makes_a_short_last_batch_unless_asked_not_to(qualname):
    fact = RAGGED_BATCHERS[qualname]
    assert fact.docs.startswith("https://")
    if not fact.drop_keyword:  # array_split: 10 rows in 3 chunks differ by one, no keyword
        assert _batches(qualname, 3, 10, drop=False) == [4, 3, 3]
        return
    assert _batches(qualname, 4, 10, drop=False) == [4, 4, 2]
    assert _batches(qualname, 4, 10, drop=True) == [4, 4]
