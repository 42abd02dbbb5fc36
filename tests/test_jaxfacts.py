"""Every entry of jitlint.jaxfacts checked against the installed JAX: the table is what the
trace-time rules believe, so a JAX release that changes a fact must fail here, not in users'
findings."""

from __future__ import annotations

import builtins
import functools
import importlib
import inspect
import os
import subprocess
import sys
import time

import typing

import pytest

from helpers import ROOT
from jitlint.jaxfacts import (TFDS_SPLIT_SIZES, TORCHVISION_SPLIT_SIZES, TORCH_SIZED_CONSTRUCTORS, TENSOR_DATASETS, SCIPY_JAX_JIT_FUNCTIONS, HOST_CALLBACKS, ARRAY_HASHING_OBJECTS, ARRAY_METHODS, ITERATOR_BUILTINS, WEAK_SCALAR_ARRAYS, REJECTED_JIT_KEYWORDS, SEQUENCE_CONVERTING_FUNCTIONS, BOOLEAN_RESULT_FUNCTIONS, DTYPE_OBJECTS, CONCRETE_METHOD_PARAMS, CONCRETE_PARAMS,
                              DATA_SIZED_METHODS, DATA_SIZED_OUTPUTS, EAGER_LAX_FUNCTION_PARAMS, LAX_CONTROL_FLOW_FUNCTION_PARAMS,
                              FIELD_HASHING_BASES, FRAMEWORK_METHODS, PUBLIC_SPELLINGS, ARRAY_API_SPELLINGS, AXIS_KEEPING_RESULTS,
                              HASHING_BUILTINS, HASHING_DECORATORS, HASHING_FUNCTIONS, HASHING_SYNTAX,
                              LIBRARY_FUNCTIONS, NON_JAX_ENUM_BASES, NON_JAX_RESULTS, NON_NUMERIC_DTYPE_BUILTINS,
                              NON_NUMERIC_DTYPE_CODES, NON_NUMERIC_DTYPE_NAMES,
                              NUMPY_DTYPED_CONSTRUCTORS, NUMPY_INFERRING_CONSTRUCTORS, NUMPY_MODULES_WITHOUT_JAX_TWIN,
                              FRESH_TRANSFORMS, HASHED_FUNCTION_PARAMS, RETRACING_TRANSFORMS, JIT_POSITIONAL_ARGUMENTS, JIT_DISABLED_FLAGS, HOST_RANDOM_SIZE_PARAMS,
                              HOST_GENERATOR_SIZE_PARAMS, LAX_LOOP_LIBRARY_CALLS,
                              LEAF_FIELD_DATACLASSES, NAMED_TUPLE_BASES, NON_ARRAY_LEAF_OBJECTS, TRACE_ERROR_CATCHERS,
                              PYTREE_CLASS_BASES, PYTREE_CLASS_DECORATORS,
                              SIGNATURE_PRESERVING_TRANSFORMS, ARGUMENT_FORWARDING_TRANSFORMS, SIZE_KEEPING_METHODS, DISTRIBUTION_METHODS, NUMPY_ARRAY_CONSTRUCTORS, PASS_THROUGH_WRAPPERS,
                              COMPILE_TIME_EVAL_CONTEXTS, TRACER_TYPES, TYPE_DISPATCH_DECORATORS, ARRAY_DISPATCH_CLASSES, LAX_BODY_ARITY, LAX_OPERANDS_FROM,
                              NUMPY_ARRAY_METHOD_FUNCTIONS, NUMPY_CONVERTING_FUNCTIONS, NUMPY_CONVERTING_METHODS,
                              STAGING_TRACES, UNFUNCTIONALIZED_CALLS, NNX_SELF_UPDATING_LAYERS, NNX_UPDATE_SWITCHES, NNX_GRAPH_TRANSFORMS,
                              NNX_MODE_LAYERS, NNX_MODE_SWITCHES, STATIC_STATE_FIELDS,
                              NUMPY_KEEPING_JNP_FUNCTIONS,
                              NUMPY_CONVERTING_SUBMODULES,
                              OPTAX_COMBINATORS, OPTAX_SCHEDULES, OPTAX_TRANSFORMATIONS, PYTHON_BOUND_BUILTINS, PYTHON_COMPARING_BUILTINS,
                              PYTHON_VALUE_BUILTINS,
                              PYTHON_VALUE_METHODS, PYTHON_VALUE_SYNTAX, PYTREE_REGISTRATIONS,
                              RAGGED_BATCHERS, SCHEDULE_PARAMS, SHAPE_KEEPING_CONVERSIONS, SHAPED_CONSTRUCTORS,
                              STATIC_FIELD_MARKERS, STATIC_SPEC_TRANSFORMS, OPTIMIZER_STATE_INITS,
                              TRACED_RESULT_CALLS,
                              TRACING_CALLS,
                              ConcreteParam, DIFFERENTIATED_VALUE_CONVERSIONS, DISPATCHED_RANDOM_DRAWS,
                              HOST_RANDOM_DRAWS, HOST_CLOCK_READS, HOST_ITERATOR_MAKERS, LAX_LOOP_BODIES, NON_PYTREE_CLASS_DECORATORS, PLAIN_CLASS_BASES, PLAIN_METACLASSES, CONSUMING_METHODS, STATE_MAKERS, CACHE_KEY_MISSING_FLAGS,
                              CONFIG_UPDATES, CACHE_CLEARS, NONDIFF_SPEC_TRANSFORMS, BATCH_KEEPING_CALLS,
                              HOST_RANDOM_GENERATORS, PYTREE_METADATA_DECORATORS, SEEDING_CALLS, PYTHON_VALUE_ATTRIBUTES,
                              FILTER_JITTED_LIBRARY_FUNCTIONS, FUNCTION_TRANSFORMS, FUNCTION_TRANSFORM_WRAPPERS,
                              PYTHON_CONVERTING_FUNCTIONS, PYTHON_TRUTH_BUILTINS, GRAPH_STATIC_JITS, TREE_MAPS,
                              NON_PYTREE_CLASS_BASES, ARGUMENT_TRACED_LIBRARY_FUNCTIONS,
                              FUNCTION_KEYED_LIBRARY_CALLS, FILTER_JITTED_LIBRARY_FUNCTIONS, FUNCTION_RUNNING_CALLS, FUNCTION_KEEPING_ESTIMATORS,
                              SOLVER_PARAMETERS, ARRAY_LEAF_PARAMS, ARRAY_FILTERS, PARTITIONS,
                              LIST_RETURNING_METHODS, DICT_RETURNING_FUNCTIONS, ARRAY_RETURNING_KEY_FUNCTIONS, STAGED_LIBRARY_FUNCTIONS, SHAPE_KEEPING_METHODS, ARRAY_NAMESPACE_GETTERS,
                              SHAPE_JOINING_CALLS, AXIS_NAME_COLLECTIVES, AXIS_BINDING_TRANSFORMS,
                              FLAG_LEAF_OBJECTS, FLAG_CALL_OVERRIDES, ROW_INDEX_ARRAYS, AXES_KEEPING_CALLS, ARGUMENT_KEEPING_DECORATORS, DTYPE_KEEPING_METHODS, MASK_KEEPING_METHODS, BOOL_DTYPES,
                              FLOAT_RANGES, TENSOR_CONVERSION_METHODS, NUMPY_VALUE_FUNCTIONS,
                              FLOAT_WHEN_FLOAT_BOUND_RANGES, SIGNATURE_KEEPING_JITS)

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
np = pytest.importorskip("numpy")

DATA = np.array([1, 0, 2])  # ints: valid for every entry (bincount, repeat counts, conditions)


def _resolve(qualname: str, root, prefix: str):
    obj = root
    for part in qualname.removeprefix(prefix).split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:  # a submodule its package does not import (jax.scipy.optimize)
            obj = importlib.import_module(f"{obj.__name__}.{part}")
    return obj


def _required_positional(function) -> int:
    params = inspect.signature(function).parameters.values()
    return sum(1 for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               and p.default is p.empty)


@pytest.mark.parametrize("qualname", sorted(DATA_SIZED_OUTPUTS))
def test_data_sized_output_on_a_constant_under_jit(qualname):
    """``on_constants``: a NumPy array constant at the data parameters raises under jit too."""
    fact = DATA_SIZED_OUTPUTS[qualname]
    function = _resolve(qualname, jax, "jax.")
    args = [DATA] * max(_required_positional(function), fact.max_positional or 1,
                        *(position + 1 for position, _ in fact.data_params))
    if fact.max_positional is not None:
        args = args[:fact.max_positional]
    staged = lambda: function(*args)  # noqa: E731
    if fact.on_constants:
        with pytest.raises(jax.errors.ConcretizationTypeError):
            jax.jit(staged)()
    else:
        jax.jit(staged)()


@pytest.mark.parametrize("qualname", sorted(DATA_SIZED_OUTPUTS))
def test_data_sized_output_raises_under_jit_without_its_size_keyword(qualname):
    fact = DATA_SIZED_OUTPUTS[qualname]
    function = _resolve(qualname, jax, "jax.")
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
    if fact.size_position is not None:  # the size passed positionally works too
        assert list(inspect.signature(function).parameters).index(fact.size_keyword) == fact.size_position
        jax.block_until_ready(jax.jit(lambda *a: function(*a, *[3] * (fact.size_position + 1 - len(a))))(*args))


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


@pytest.mark.parametrize("qualname", sorted(LAX_CONTROL_FLOW_FUNCTION_PARAMS))
def test_lax_control_flow_function_parameters_are_named_as_jax_names_them(qualname):
    parameters = list(inspect.signature(_resolve(qualname, jax, "jax.")).parameters)
    for position, keyword in LAX_CONTROL_FLOW_FUNCTION_PARAMS[qualname]:
        assert parameters[position] == keyword, (qualname, position, keyword)


@pytest.mark.parametrize("qualname", sorted(EAGER_LAX_FUNCTION_PARAMS))
def test_eager_lax_function_argument_keys_the_compile_cache_by_equality(qualname):
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

@pytest.mark.parametrize("qualname", sorted(RETRACING_TRANSFORMS))
def test_retracing_transform_runs_the_function_on_every_eager_call_and_compiles_its_fresh_lax_body(qualname):
    """Calling what ``T(f)`` returns, outside a jit, runs ``f``'s Python on every call, so a
    ``lax.scan`` of a lambda in ``f`` compiles on every call; under a jit, once."""
    package = qualname.split(".")[0]
    transform = _resolve(qualname, importlib.import_module(package), f"{package}.")
    runs = []

    def loss(v):
        runs.append(1)
        _, ys = jax.lax.scan(lambda c, e: (c, c * e), jnp.float32(2.0), v)
        return jnp.sum(ys * v)

    x = jnp.arange(1.0, 4.0)
    batched = qualname.endswith("vmap")
    applied = transform(loss)
    arg = x[None, :] if batched else x
    jax.block_until_ready(applied(arg))  # first call: the ops' own compiles, out of the counts

    def eager():
        for _ in range(3):
            jax.block_until_ready(applied(arg))

    step = jax.jit(lambda a: applied(a))  # equinox's wrappers are modules: jit a function of them
    jax.block_until_ready(step(arg))

    def jitted():
        for _ in range(3):
            jax.block_until_ready(step(arg))

    runs.clear()
    eager_compiles = _compiles(eager)
    assert len(runs) == 3
    assert eager_compiles >= 3
    assert _compiles(jitted) == 0


def _host_random_draw(call, position: int, keyword: str, size: tuple):
    """Call a NumPy draw with ``size`` at (position, keyword), filling earlier parameters."""
    if position == -1:
        return call(*size)
    fillers = {"randint": (1, 10), "integers": (1, 10), "choice": (np.arange(50),)}
    name = getattr(call, "__name__", "")
    before = fillers.get(name, (0.0, 1.0))[:position]
    return call(*before, size) if keyword == "" else call(*before, **{keyword: size})


@pytest.mark.parametrize("qualname", sorted(HOST_RANDOM_SIZE_PARAMS))
def test_host_random_size_param_sets_the_output_shape(qualname):
    position, keyword = HOST_RANDOM_SIZE_PARAMS[qualname]
    draw = _resolve(qualname, np, "numpy.")
    assert np.shape(_host_random_draw(draw, position, keyword, (7, 3))) == (7, 3)
    if position >= 0:  # by position too
        assert np.shape(_host_random_draw(draw, position, "", (5, 2))) == (5, 2)


@pytest.mark.parametrize("method", sorted(HOST_GENERATOR_SIZE_PARAMS))
def test_host_generator_size_param_sets_the_output_shape(method):
    position, keyword = HOST_GENERATOR_SIZE_PARAMS[method]
    draw = getattr(np.random.default_rng(0), method)
    assert np.shape(_host_random_draw(draw, position, keyword, (7, 3))) == (7, 3)
    assert np.shape(_host_random_draw(draw, position, "", (5, 2))) == (5, 2)


@pytest.mark.parametrize("qualname", sorted(JIT_DISABLED_FLAGS))
def test_jit_disabled_flag_is_false_under_jit_and_true_under_disable_jit(qualname):
    seen = []

    @jax.jit
    def f(x):
        seen.append(bool(_resolve(qualname, jax, "jax.")))
        return x * 2

    f(jnp.ones(2))
    with jax.disable_jit():
        f(jnp.ones(2))
    assert seen == [False, True]


@pytest.mark.parametrize("qualname", sorted(JIT_POSITIONAL_ARGUMENTS))
def test_jit_positional_arguments_beyond_the_limit_raise(qualname):
    jit = _resolve(qualname, jax, "jax.")
    limit = JIT_POSITIONAL_ARGUMENTS[qualname]
    assert limit == 1
    jit(lambda x, n: x)  # the function alone is accepted
    with pytest.raises(TypeError, match="positional argument"):
        jit(lambda x, n: x, (1,))


@pytest.mark.parametrize("spelling", sorted(ARRAY_API_SPELLINGS))
def test_array_api_spelling_computes_what_the_classic_name_does(spelling):
    module, _, name = spelling.rpartition(".")
    array_api = getattr(importlib.import_module(module), name)
    classic = getattr(importlib.import_module(module), PUBLIC_SPELLINGS[spelling].rpartition(".")[2])
    parts = (np.ones((2, 3)), np.zeros((1, 3)))
    assert np.array_equal(array_api(parts, axis=0), classic(parts, axis=0))
    assert np.array_equal(array_api(parts, axis=-2), classic(parts, -2))


@pytest.mark.parametrize("spelling", sorted(set(PUBLIC_SPELLINGS) - set(ARRAY_API_SPELLINGS)))
def test_public_spelling_is_that_function(spelling):
    import importlib
    import warnings

    module, _, name = spelling.rpartition(".")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        obj = getattr(importlib.import_module(module), name)
    # jax.experimental.shard_map.shard_map is a deprecated shim around jax.shard_map
    assert obj.__name__ == _resolve(PUBLIC_SPELLINGS[spelling], jax, "jax.").__name__


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
    if qualname == "datasets.Dataset.iter":
        hf_datasets = pytest.importorskip("datasets")
        dataset = hf_datasets.Dataset.from_dict({"x": rows.tolist()})
        return [len(b["x"]) for b in dataset.iter(**keywords)]
    if qualname == "tensorflow_datasets.load":
        tfds = pytest.importorskip("tensorflow_datasets")
        with tfds.testing.mock_data(num_examples=length):
            return [len(b["image"]) for b in tfds.as_numpy(tfds.load("mnist", split="train", **keywords))]
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
    if fact.chunks:  # array_split: 10 rows in 3 chunks differ by one, no keyword
        assert _batches(qualname, 3, 10, drop=False) == [4, 3, 3]
        return
    assert _batches(qualname, 4, 10, drop=False) == [4, 4, 2]
    if not fact.drop_keyword:  # no option to drop it (tfds.load)
        return
    assert _batches(qualname, 4, 10, drop=True) == [4, 4]


@pytest.mark.parametrize("qualname", sorted(TORCH_SIZED_CONSTRUCTORS))
def test_torch_constructor_takes_its_shape_as_the_table_says(qualname):
    """A size tuple among the positional arguments (after the bounds, for randint) or ``size=``
    gives the shape; where the table says so, positional ints are the dimensions too."""
    torch = pytest.importorskip("torch")
    make = _resolve(qualname, torch, "torch.")
    bounds = (0, 10) if qualname == "torch.randint" else ()
    assert make(*bounds, (6, 2)).shape[0] == 6
    assert make(*bounds, size=(6, 2)).shape[0] == 6
    if TORCH_SIZED_CONSTRUCTORS[qualname]:
        assert make(6, 2).shape[0] == 6
    else:
        with pytest.raises(TypeError):
            make(*bounds, 6, 2)


@pytest.mark.parametrize("qualname", sorted(TENSOR_DATASETS))
def test_tensor_dataset_is_as_long_as_its_first_tensor(qualname):
    torch = pytest.importorskip("torch")
    dataset = _resolve(qualname, torch, "torch.")(torch.zeros(136, 3), torch.zeros(136))
    assert len(dataset) == 136
    assert [len(batch[0]) for batch in torch.utils.data.DataLoader(dataset, batch_size=64)] == [64, 64, 8]


@pytest.mark.parametrize("qualname", sorted(TORCHVISION_SPLIT_SIZES))
def test_torchvision_dataset_picks_its_split_by_a_train_flag(qualname):
    """The dataset's second parameter is ``train``, true by default; its split lengths are the
    catalog's, as tensorflow_datasets records them for the same dataset."""
    tfds_name = {"MNIST": "mnist", "FashionMNIST": "fashion_mnist", "KMNIST": "kmnist", "CIFAR10": "cifar10",
                 "CIFAR100": "cifar100"}[qualname.rsplit(".", 1)[1]]
    assert TORCHVISION_SPLIT_SIZES[qualname] == (TFDS_SPLIT_SIZES[(tfds_name, "train")],
                                                 TFDS_SPLIT_SIZES[(tfds_name, "test")])
    torchvision = pytest.importorskip("torchvision")
    parameters = list(inspect.signature(_resolve(qualname, torchvision, "torchvision.")).parameters.values())
    assert parameters[1].name == "train" and parameters[1].default is True


# --- values that must be concrete ---------------------------------------------------------------

def _error_class(name: str) -> type:
    return getattr(jax.errors, name, None) or getattr(builtins, name)


def _concrete_examples() -> dict[str, tuple[tuple, dict]]:
    """A call of each function of CONCRETE_PARAMS that works, with every parameter the table
    names given (positionally where the fact has a position)."""
    x, m, key = jnp.arange(1.0, 7.0), jnp.ones((2, 3)), jax.random.key(0)
    shape = ((3,), {})
    return {
        **{f"jax.numpy.{f}": shape for f in ("zeros", "ones", "empty")},
        "jax.numpy.full": (((3,), 1.0), {}),
        **{f"jax.numpy.{f}": ((x, None, (3,)), {}) for f in ("zeros_like", "ones_like", "empty_like")},
        "jax.numpy.full_like": ((x, 1.0, None, (3,)), {}),
        "jax.numpy.arange": ((0, 3, 1), {}),
        **{f"jax.numpy.{f}": ((1, 2, 3), {}) for f in ("linspace", "logspace", "geomspace")},
        "jax.numpy.eye": ((3, 2), {}),
        "jax.numpy.identity": ((3,), {}),
        "jax.numpy.tri": ((3, 2), {}),
        **{f"jax.numpy.{f}": ((3,), {}) for f in ("triu_indices", "tril_indices", "diag_indices")},
        "jax.numpy.indices": (((3,),), {}),
        "jax._src.core.concrete_or_error": ((None, 3.0, "needs a concrete value"), {}),
        "jax.numpy.reshape": ((x, (2, 3)), {}),
        "jax.numpy.broadcast_to": ((x, (2, 6)), {}),
        "jax.numpy.resize": ((x, (3,)), {}),
        "jax.numpy.tile": ((x, 2), {}),
        "jax.numpy.pad": ((x, ((1, 2),)), {}),
        "jax.numpy.split": ((x, 2), {}),
        "jax.numpy.array_split": ((x, 4), {}),
        "jax.numpy.histogram": ((x, 3), {}),
        "jax.numpy.histogram_bin_edges": ((x, 3), {}),
        "jax.numpy.bincount": ((jnp.array([0, 1]), None, 2), {"length": 5}),
        "jax.numpy.vander": ((x, 3), {}),
        "jax.numpy.diagflat": ((x, 1), {}),
        "jax.numpy.linalg.matrix_power": ((jnp.eye(2), 2), {}),
        **{f"jax.numpy.fft.{f}": ((x, 4), {}) for f in ("ifft", "rfft", "irfft")},
        "jax.numpy.argpartition": ((x, 2), {}),
        "jax.numpy.take_along_axis": ((m, jnp.zeros((1, 3), int), 0), {}),
        "jax.numpy.cumulative_sum": ((x,), {"axis": 0}),
        "jax.numpy.polyfit": ((x, x, 2), {}),
        "jax.numpy.fft.fft": ((x, 4), {}),
        **{f"jax.numpy.{f}": ((m, 1), {}) for f in ("tril", "triu", "diag", "rot90", "partition")},
        "jax.numpy.round": ((x, 1), {}),
        **{f"jax.numpy.{f}": ((m, 0), {}) for f in (
            "sum", "mean", "max", "min", "prod", "argmax", "argmin", "any", "all", "std", "var",
            "cumprod", "median", "nansum", "nanmean", "expand_dims", "flip", "cumsum", "sort",
            "argsort")},
        "jax.numpy.squeeze": ((m[None], 0), {}),
        **{f"jax.numpy.{f}": (([m, m], 0), {}) for f in ("concatenate", "stack")},
        "jax.numpy.take": ((m, 0, 0), {}),
        "jax.numpy.delete": ((m, 0, 0), {}),
        "jax.numpy.insert": ((m, 0, 1.0, 0), {}),
        "jax.numpy.roll": ((m, 1, 0), {}),
        "jax.numpy.moveaxis": ((m, 1, 0), {}),
        "jax.numpy.swapaxes": ((m, 1, 0), {}),
        "jax.numpy.transpose": ((m, (1, 0)), {}),
        "jax.numpy.quantile": ((m, 0.5, 0), {}),
        "jax.numpy.linalg.norm": ((m, 2, (0, 1)), {}),
        "jax.numpy.diagonal": ((m, 1), {}),
        "jax.numpy.diff": ((m, 1, 0), {}),
        "jax.nn.one_hot": ((x, 3), {}),
        "jax.nn.softmax": ((m, 0), {}),
        "jax.nn.log_softmax": ((m, 0), {}),
        "jax.scipy.special.multigammaln": ((x, 2), {}),
        "jax.image.resize": ((x, (3,), "linear"), {}),
        "jax.lax.dynamic_slice": ((x, (0,), (2,)), {}),
        "jax.lax.dynamic_slice_in_dim": ((x, 0, 2, 0), {}),
        "jax.lax.dynamic_index_in_dim": ((m, 1, 0), {}),
        "jax.lax.dynamic_update_slice_in_dim": ((m, m[:1], 0, 0), {}),
        "jax.lax.dynamic_update_index_in_dim": ((m, m[0], 0, 0), {}),
        "jax.lax.slice": ((x, (1,), (4,)), {}),
        "jax.lax.slice_in_dim": ((x, 1, 4, 1, 0), {}),
        "jax.lax.index_in_dim": ((x, 1, 0), {}),
        "jax.lax.integer_pow": ((x, 2), {}),
        "jax.lax.broadcast": ((x, (2,)), {}),
        "jax.lax.broadcast_in_dim": ((x, (2, 6), (1,)), {}),
        "jax.lax.reshape": ((x, (2, 3)), {}),
        "jax.lax.iota": ((jnp.int32, 3), {}),
        "jax.lax.full": (((3,), 1.0), {}),
        "jax.lax.pad": ((x, 0.0, ((1, 0, 0),)), {}),
        "jax.lax.top_k": ((x, 2), {}),
        "jax.lax.expand_dims": ((x, (0,)), {}),
        "jax.lax.squeeze": ((m[None], (0,)), {}),
        "jax.lax.transpose": ((m, (1, 0)), {}),
        "jax.lax.rev": ((x, (0,)), {}),
        "jax.lax.concatenate": (([m, m], 0), {}),
        "jax.lax.cumsum": ((m, 0), {}),
        "jax.lax.conv": ((jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (1, 1), "SAME"), {}),
        "jax.lax.conv_general_dilated": ((jnp.ones((1, 1, 4, 4)), jnp.ones((1, 1, 3, 3)), (1, 1), "SAME"), {}),
        "jax.lax.sort": ((m, 0), {}),
        "jax.lax.scan": ((lambda c, _: (c, c), 0.0, None, 3, False, 1), {}),
        "jax.lax.fori_loop": ((0, 3, lambda i, c: c + i, 0), {"unroll": 1}),
        "jax.lax.reduce_window": ((x, 0.0, jax.lax.add, (2,), (1,), "VALID"), {}),
        **{f"jax.random.{f}": ((key, (3,)), {}) for f in (
            "normal", "uniform", "exponential", "gumbel", "laplace", "rademacher")},
        "jax.random.randint": ((key, (3,), 0, 5), {}),
        **{f"jax.random.{f}": ((key, 0.5, (3,)), {}) for f in ("bernoulli", "gamma", "poisson")},
        "jax.random.dirichlet": ((key, jnp.ones(2), (3,)), {}),
        "jax.random.truncated_normal": ((key, -1.0, 1.0, (3,)), {}),
        "jax.random.beta": ((key, 1.0, 1.0, (3,)), {}),
        "jax.random.categorical": ((key, m, 0, (3,)), {}),
        "jax.random.split": ((key, 3), {}),
        "jax.random.choice": ((key, x, (3,)), {}),
        "jax.random.orthogonal": ((key, 3), {}),
    }


def _concrete_cases(table) -> list[tuple[str, ConcreteParam]]:
    return [(name, fact) for name in sorted(table) for fact in table[name]]


def _with(args: tuple, kwargs: dict, fact: ConcreteParam, value=None, take=False):
    """The example's value at ``fact``'s parameter (take) or the call with ``value`` there."""
    if fact.position >= 0 and fact.position < len(args):
        if take:
            return args[fact.position]
        return args[:fact.position] + (value,) + args[fact.position + 1:], kwargs
    if take:
        return kwargs[fact.keyword]
    return args, {**kwargs, fact.keyword: value}


def _check_concrete_fact(call, args: tuple, kwargs: dict, fact: ConcreteParam) -> None:
    constant = _with(args, kwargs, fact, take=True)
    jax.block_until_ready(jax.jit(lambda: call(*args, **kwargs))())  # works with a constant
    with pytest.raises(_error_class(fact.error)) as raised:
        jax.jit(lambda v: call(*_with(args, kwargs, fact, v)[0], **_with(args, kwargs, fact, v)[1]))(constant)
    assert type(raised.value).__name__ == fact.error, (fact, raised.value)


def _library_concrete_calls() -> dict[str, tuple[object, tuple, dict]]:
    """The CONCRETE_PARAMS entries of other libraries than JAX: a call that runs the entry with
    the given arguments (building and applying a flax layer), and arguments that work."""
    nn = pytest.importorskip("flax.linen")
    x, rngs = jnp.ones((2, 3)), {"dropout": jax.random.key(1)}
    stats = nn.BatchNorm(use_running_average=False).init(jax.random.key(0), x)
    x3 = jnp.ones((2, 3, 4))
    attention = nn.MultiHeadDotProductAttention(num_heads=1).init(jax.random.key(0), x3, deterministic=True)

    def batch_norm(*args, **kwargs):
        return nn.BatchNorm(*args, **kwargs).apply(stats, x, mutable=["batch_stats"])[0]

    return {
        "flax.linen.Dropout": (lambda *a, **k: nn.Dropout(*a, **k).apply({}, x, rngs=rngs), (0.1, (), True), {}),
        "flax.linen.MultiHeadDotProductAttention": (
            lambda *a, **k: nn.MultiHeadDotProductAttention(*a, **k).apply(attention, x3, deterministic=False, rngs=rngs),
            (1, None, jnp.float32, None, None, False, 0.1), {}),
        "flax.linen.Dropout.__call__": (lambda *a, **k: nn.Dropout(0.1).apply({}, *a, rngs=rngs, **k),
                                        (x, True), {}),
        "flax.linen.BatchNorm": (batch_norm, (True,), {}),
        "flax.linen.BatchNorm.__call__": (
            lambda *a, **k: nn.BatchNorm().apply(stats, *a, mutable=["batch_stats"], **k)[0], (x, True), {}),
        "chex.assert_equal": (pytest.importorskip("chex").assert_equal, (1, 1), {}),
        "diffrax.diffeqsolve": (pytest.importorskip("diffrax").diffeqsolve, _decay_problem(), {"max_steps": 16}),
        **{f"chex.{name}": (getattr(pytest.importorskip("chex"), name), (1,) + ((0, 2) if name.endswith("_in") else ()), {})
           for name in ("assert_scalar", "assert_scalar_positive", "assert_scalar_non_negative", "assert_scalar_in")},
        "chex.assert_scalar_negative": (pytest.importorskip("chex").assert_scalar_negative, (-1,), {}),
        **{f"numpy.{name}": (getattr(np, name), ((2,),) + ((1.0,) if name == "full" else ()), {})
           for name in ("zeros", "ones", "empty", "full")},
        "numpy.linspace": (np.linspace, (0.0, 1.0, 3), {}),
        "numpy.eye": (np.eye, (2, 3), {}),
        "numpy.identity": (np.identity, (2,), {}),
        **{f"equinox.{name}": (getattr(pytest.importorskip("equinox"), name),
                               (((1.0, 2.0), 3.0), ((True, False), False)), {}) for name in ("partition", "filter")},
    }


def _decay_problem() -> tuple:
    """diffeqsolve's positional arguments for dy/dt = -y from 0 to 1."""
    diffrax = pytest.importorskip("diffrax")
    return diffrax.ODETerm(lambda t, y, args: -y), diffrax.Tsit5(), 0.0, 1.0, 0.1, jnp.ones(2)


_LIBRARY_CONCRETE_PARAMS = {name: facts for name, facts in CONCRETE_PARAMS.items() if not name.startswith("jax.")}


def test_every_concrete_param_fact_has_an_example():
    assert set(CONCRETE_PARAMS) - set(_LIBRARY_CONCRETE_PARAMS) == set(_concrete_examples())
    assert set(_LIBRARY_CONCRETE_PARAMS) == set(_library_concrete_calls())


@pytest.mark.parametrize("qualname,fact", _concrete_cases(_LIBRARY_CONCRETE_PARAMS),
                         ids=lambda v: v if isinstance(v, str) else v.keyword)
def test_library_concrete_param_raises_with_a_tracer_and_works_with_a_constant(qualname, fact):
    top = qualname.split(".")[0]
    function = _resolve(qualname, pytest.importorskip(top), f"{top}.")
    parameters = list(inspect.signature(function).parameters)
    if qualname.endswith(".__call__"):
        parameters = parameters[1:]  # self
    assert parameters.index(fact.keyword) == fact.position, (qualname, fact)
    call, args, kwargs = _library_concrete_calls()[qualname]
    _check_concrete_fact(call, args, kwargs, fact)


@pytest.mark.parametrize("qualname,fact", _concrete_cases({name: facts for name, facts in CONCRETE_PARAMS.items()
                                                            if name not in _LIBRARY_CONCRETE_PARAMS}),
                         ids=lambda v: v if isinstance(v, str) else v.keyword)
def test_concrete_param_raises_with_a_tracer_and_works_with_a_constant(qualname, fact):
    function = _resolve(qualname, jax, "jax.")
    parameters = list(inspect.signature(function).parameters)
    assert fact.keyword in parameters, (qualname, fact.keyword)
    if fact.position >= 0:
        assert parameters.index(fact.keyword) == fact.position, (qualname, fact)
    args, kwargs = _concrete_examples()[qualname]
    _check_concrete_fact(function, args, kwargs, fact)


@pytest.mark.parametrize("method,fact", _concrete_cases(CONCRETE_METHOD_PARAMS),
                         ids=lambda v: v if isinstance(v, str) else v.keyword)
def test_concrete_method_param_raises_with_a_tracer_and_works_with_a_constant(method, fact):
    m = jnp.ones((1, 2, 3) if method == "squeeze" else (2, 3))
    args = ((3, 2),) if method == "reshape" else (1, 0) if method == "transpose" else (0,)
    _check_concrete_fact(lambda *a, **k: getattr(m, method)(*a, **k), args, {}, fact)
    if fact.rest:  # every later positional argument too: m.reshape(3, n)
        later = ConcreteParam(fact.position + 1, fact.keyword, fact.error)
        _check_concrete_fact(lambda *a: getattr(m, method)(*a), (3, 2) if method == "reshape" else (1, 0),
                             {}, later)


# --- Python operations that force a concrete value ----------------------------------------------

@pytest.mark.parametrize("builtin", sorted(PYTHON_VALUE_BUILTINS))
def test_python_value_builtin_raises_on_a_tracer(builtin):
    function = getattr(builtins, builtin)
    assert function(65) is not None
    with pytest.raises(_error_class(PYTHON_VALUE_BUILTINS[builtin])) as raised:
        jax.jit(lambda v: function(v))(65)
    assert type(raised.value).__name__ == PYTHON_VALUE_BUILTINS[builtin]


@pytest.mark.parametrize("builtin", sorted(PYTHON_BOUND_BUILTINS))
def test_python_bound_builtin_raises_on_a_tracer(builtin):
    function = getattr(builtins, builtin)
    jax.jit(lambda: jnp.asarray(list(function(0, 3))))()
    with pytest.raises(_error_class(PYTHON_BOUND_BUILTINS[builtin])):
        jax.jit(lambda v: function(0, v))(3)


@pytest.mark.parametrize("builtin", sorted(PYTHON_COMPARING_BUILTINS))
def test_python_comparing_builtin_raises_on_tracers(builtin):
    function = getattr(builtins, builtin)
    assert function([2.0, 1.0]) is not None
    error = _error_class(PYTHON_COMPARING_BUILTINS[builtin])
    with pytest.raises(error):
        jax.jit(lambda v: jnp.asarray(function([v, 1.0])))(2.0)
    if builtin != "sorted":  # max(a, b): several arguments
        with pytest.raises(error):
            jax.jit(lambda v: function(v, 1.0))(2.0)


@pytest.mark.parametrize("method", sorted(PYTHON_VALUE_METHODS))
def test_python_value_method_raises_on_a_tracer(method):
    assert getattr(jnp.ones(1), method)() is not None
    with pytest.raises(_error_class(PYTHON_VALUE_METHODS[method])) as raised:
        jax.jit(lambda v: getattr(v, method)())(jnp.ones(1))
    assert type(raised.value).__name__ == PYTHON_VALUE_METHODS[method]


@pytest.mark.parametrize("attribute", sorted(PYTHON_VALUE_ATTRIBUTES))
def test_python_value_attribute_raises_on_a_tracer(attribute):
    getattr(jnp.ones(1), attribute)  # a concrete array has it
    with pytest.raises(_error_class(PYTHON_VALUE_ATTRIBUTES[attribute])) as raised:
        jax.jit(lambda v: (getattr(v, attribute), v)[1])(jnp.ones(1))
    assert type(raised.value).__name__ == PYTHON_VALUE_ATTRIBUTES[attribute]


SYNTAX_EXAMPLES = {
    "truth test": lambda v: 1.0 if v > 0 else 0.0,
    "slice bound": lambda v: jnp.arange(5)[:v],
    "sequence index": lambda v: [1.0, 2.0, 3.0][v],
    "sequence repeat": lambda v: jnp.concatenate([jnp.ones(2)] * v),
    "format spec": lambda v: (f"{v:.2f}", v)[1],
    "numeric %-format": lambda v: ("%.2f" % v, v)[1],
}


@pytest.mark.parametrize("operation", sorted(PYTHON_VALUE_SYNTAX))
def test_python_value_syntax_raises_on_a_tracer(operation):
    assert set(SYNTAX_EXAMPLES) == set(PYTHON_VALUE_SYNTAX)
    example = SYNTAX_EXAMPLES[operation]
    example(1)  # a Python value works
    with pytest.raises(_error_class(PYTHON_VALUE_SYNTAX[operation])) as raised:
        jax.jit(example)(1)
    assert type(raised.value).__name__ == PYTHON_VALUE_SYNTAX[operation]


# --- Calls that trace the functions given to them -----------------------------------------------
# Each example calls the entry eagerly; ``wrap[k]`` wraps the function at its k-th function slot.
_XS = jnp.arange(3.0)
TRACING_CALL_EXAMPLES = {
    "jax.vmap": lambda wrap: jax.vmap(wrap[0](lambda a: a))(_XS),
    "jax.lax.scan": lambda wrap: jax.lax.scan(wrap[0](lambda c, a: (c + a, a)), 0.0, _XS),
    "jax.lax.fori_loop": lambda wrap: jax.lax.fori_loop(0, 2, wrap[0](lambda i, v: v + i), 0.0),
    "jax.lax.while_loop": lambda wrap: jax.lax.while_loop(wrap[0](lambda v: v < 2), wrap[1](lambda v: v + 1), 0.0),
    "jax.lax.cond": lambda wrap: jax.lax.cond(True, wrap[0](lambda v: v + 1), wrap[1](lambda v: v - 1), 1.0),
    "jax.lax.map": lambda wrap: jax.lax.map(wrap[0](lambda a: a * 2), _XS),
    "flax.nnx.vmap": lambda wrap: importlib.import_module("flax.nnx").vmap(wrap[0](lambda a: a * 2))(_XS),
    # every branch of the list is traced, whichever the index picks
    "jax.lax.switch": lambda wrap: jax.lax.switch(0, [lambda v: v * 2, wrap[0](lambda v: v + 1)], 1.0),
    "jax.grad": lambda wrap: jax.grad(wrap[0](lambda a, b: a * b))(1.0, 2.0),
    "jax.value_and_grad": lambda wrap: jax.value_and_grad(wrap[0](lambda a, b: a * b))(1.0, 2.0),
    "jax.jacfwd": lambda wrap: jax.jacfwd(wrap[0](lambda a, b: a * b))(_XS, 2.0),
    "jax.jacrev": lambda wrap: jax.jacrev(wrap[0](lambda a, b: a * b))(_XS, 2.0),
    "jax.hessian": lambda wrap: jax.hessian(wrap[0](lambda a, b: (a ** 2).sum() * b))(_XS, 2.0),
    "jax.linearize": lambda wrap: jax.linearize(wrap[0](lambda a, b: a * b), 1.0, 2.0),
    "jax.vjp": lambda wrap: jax.vjp(wrap[0](lambda a, b: a * b), 1.0, 2.0),
    "jax.jvp": lambda wrap: jax.jvp(wrap[0](lambda a, b: a * b), (1.0, 2.0), (1.0, 1.0)),
    "jax.checkpoint": lambda wrap: jax.checkpoint(wrap[0](lambda a, b: a * b))(1.0, 2.0),
    "jax.remat": lambda wrap: jax.remat(wrap[0](lambda a, b: a * b))(1.0, 2.0),
    "jax.make_jaxpr": lambda wrap: jax.make_jaxpr(wrap[0](lambda a, b: a * b))(1.0, 2.0),
    "jax.pmap": lambda wrap: jax.pmap(wrap[0](lambda a, b: a * b))(jnp.ones(1), jnp.ones(1)),
    "jax.eval_shape": lambda wrap: jax.eval_shape(wrap[0](lambda a, b: a * b), 1.0, 2.0),
    "jax.closure_convert": lambda wrap: jax.closure_convert(wrap[0](lambda a, b: a * b), 1.0, 2.0),
    "jax.lax.custom_root": lambda wrap: jax.lax.custom_root(
        wrap[0](lambda x: x - 1.0), 0.0, lambda f, x0: x0 + 1.0, lambda g, y: y),
    "jax.lax.custom_linear_solve": lambda wrap: jax.lax.custom_linear_solve(
        wrap[0](lambda x: 2.0 * x), 1.0, lambda matvec, b: b / 2.0),
    "jax.scipy.optimize.minimize": lambda wrap: importlib.import_module("jax.scipy.optimize").minimize(
        wrap[0](lambda x: jnp.sum((x - 1.0) ** 2)), _XS, method="BFGS"),
    "numpyro.infer.NUTS": lambda wrap: _mcmc("NUTS", wrap[0](_numpyro_model)),
    "numpyro.infer.HMC": lambda wrap: _mcmc("HMC", wrap[0](_numpyro_model)),
    "numpyro.infer.SVI": lambda wrap: _svi(wrap[0](_numpyro_model), wrap[1](_numpyro_guide)),
    "numpyro.infer.Predictive": lambda wrap: importlib.import_module("numpyro.infer").Predictive(
        wrap[0](_numpyro_model), num_samples=2)(jax.random.key(0), np.array([0.5, 1.5])),
    "blackjax.nuts": lambda wrap: _blackjax_sample("nuts", wrap[0](lambda x: -jnp.sum(x ** 2))),
    "blackjax.hmc": lambda wrap: _blackjax_sample("hmc", wrap[0](lambda x: -jnp.sum(x ** 2))),
    **{f"jaxopt.{name}": (lambda name: lambda wrap: getattr(importlib.import_module("jaxopt"), name)(
        fun=wrap[0](lambda x, k: jnp.sum((x - k) ** 2)), maxiter=2).run(_XS, 1.0))(name)
       for name in ("LBFGS", "BFGS", "GradientDescent", "NonlinearCG", "ArmijoSGD", "PolyakSGD",
                    "ScipyMinimize")},
    **{f"jaxopt.{name}": (lambda name: lambda wrap: getattr(importlib.import_module("jaxopt"), name)(
        residual_fun=wrap[0](lambda x, k: x - k), maxiter=2).run(_XS, 1.0))(name)
       for name in ("LevenbergMarquardt", "GaussNewton")},
    **{f"jaxopt.{name}": (lambda name: lambda wrap: getattr(importlib.import_module("jaxopt"), name)(  # run(init, bounds, *args)
        fun=wrap[0](lambda x, k: jnp.sum((x - k) ** 2)), maxiter=2).run(_XS, (_XS - 5.0, _XS + 5.0), 1.0))(name)
       for name in ("LBFGSB", "ScipyBoundedMinimize")},
    "diffrax.ODETerm": lambda wrap: _diffrax_solve(wrap[0](lambda t, y, args: -y * args)),
    "flax.linen.Module.param": lambda wrap: _linen_param(wrap[0](lambda key, shape: jnp.ones(shape))),
}
# the number of parameters of each example's functions, where not 1
_EXAMPLE_ARITY = {"jax.lax.scan": 2, "jax.lax.fori_loop": 2,
                  **{name: 2 for name in TRACING_CALLS if name.startswith("jaxopt.")},
                  "diffrax.ODETerm": 3, "flax.linen.Module.param": 2,
                  **{f"jax.{name}": 2 for name in ("linearize", "vjp", "jvp", "checkpoint", "remat",
                                                   "make_jaxpr", "pmap", "eval_shape", "closure_convert")}}


def _numpyro_model(x):
    numpyro = importlib.import_module("numpyro")
    loc = numpyro.sample("loc", importlib.import_module("numpyro.distributions").Normal(0.0, 1.0))
    numpyro.sample("obs", importlib.import_module("numpyro.distributions").Normal(loc, 1.0), obs=x)


def _numpyro_guide(x):
    numpyro = importlib.import_module("numpyro")
    mean = numpyro.param("mean", 0.0)
    numpyro.sample("loc", importlib.import_module("numpyro.distributions").Normal(mean, 1.0))


def _mcmc(kernel, model):
    infer = importlib.import_module("numpyro.infer")
    mcmc = infer.MCMC(getattr(infer, kernel)(model), num_warmup=2, num_samples=2, progress_bar=False)
    mcmc.run(jax.random.key(0), np.array([0.5, 1.5]))


def _svi(model, guide):
    numpyro = importlib.import_module("numpyro")
    infer = importlib.import_module("numpyro.infer")
    svi = infer.SVI(model, guide, numpyro.optim.Adam(0.1), infer.Trace_ELBO())
    svi.run(jax.random.key(0), 2, np.array([0.5, 1.5]), progress_bar=False)


def _blackjax_sample(kernel, logdensity):
    sampler = getattr(importlib.import_module("blackjax"), kernel)(
        logdensity, 0.1, jnp.ones(3), **({"num_integration_steps": 2} if kernel == "hmc" else {}))
    sampler.step(jax.random.key(0), sampler.init(_XS))


def _diffrax_solve(vector_field):
    diffrax = importlib.import_module("diffrax")
    diffrax.diffeqsolve(diffrax.ODETerm(vector_field), diffrax.Tsit5(), 0.0, 1.0, 0.5, _XS, args=2.0)


def _linen_param(init):
    """A linen Module whose parameter ``init`` makes: init runs it eagerly, apply traces it."""
    nn = importlib.import_module("flax.linen")

    class Scaled(nn.Module):
        @nn.compact
        def __call__(self, x):
            # a typed key (apply's) as its integer data, which the checks can sum: traced when it is
            return x * self.param("w", lambda key, shape: init(
                jax.random.key_data(key) if jnp.issubdtype(key.dtype, jax.dtypes.prng_key) else key, shape), (3,))

    module = Scaled()
    with jax.disable_jit():  # init as it runs outside jit: the initializer gets the key's values
        variables = module.init(jax.random.PRNGKey(0), jnp.ones(3))
    module.apply(variables, jnp.ones(3))


BODY = "body"  # in a slot's list: check a jax.numpy value made in the function's body


def _checking(check, slot_params):
    """Wrappers per function slot: the function at a slot checks its parameters listed there."""
    def wrapper(slot):
        def wrap(function):
            @functools.wraps(function)  # the function's signature (jaxopt's GradientDescent reads it)
            def checked(*args):
                for index in slot_params.get(slot, ()):
                    check(jnp.ones(1) + 1.0 if index == BODY else args[index])
                return function(*args)
            return checked
        return wrap
    return [wrapper(slot) for slot in range(2)]


def _traced_slots(qualname):
    """{slot: the parameters the fact says get tracers} for the example's functions."""
    fact = TRACING_CALLS[qualname]
    arity = _EXAMPLE_ARITY.get(qualname, 1)
    params = [0] if fact.argnums is not None else list(range(arity))  # argnums left out: the first
    if fact.given is not None:
        params = [*fact.given] or [BODY]  # none given: the body is traced all the same
    return {slot: params for slot in range(len(fact.functions))}


def _untraced_params(qualname):
    """{slot: the parameters that get the values passed} where the fact names which do not."""
    fact = TRACING_CALLS[qualname]
    if fact.given is None:
        return {}
    left = [i for i in range(_EXAMPLE_ARITY.get(qualname, 1)) if i not in fact.given]
    return {slot: left for slot in range(len(fact.functions))} if left else {}


@pytest.mark.parametrize("qualname", sorted(TRACING_CALLS))
def test_tracing_call_gives_its_functions_tracers(qualname):
    assert set(TRACING_CALL_EXAMPLES) == set(TRACING_CALLS)
    fact, example = TRACING_CALLS[qualname], TRACING_CALL_EXAMPLES[qualname]
    slots = _traced_slots(qualname)
    if fact.abstract:  # (otherwise the truth tests below run it to its end)
        example(_checking(lambda v: None, slots))  # runs as written
    for slot, params in slots.items():
        for param in params:
            one = {slot: [param]}
            with pytest.raises(jax.errors.TracerArrayConversionError):
                example(_checking(np.asarray, one))  # a tracer, under every entry
            truth = _checking(lambda v: bool(jnp.sum(v) > 0), one)
            if fact.abstract:  # no value: a Python truth test raises
                with pytest.raises(jax.errors.TracerBoolConversionError):
                    example(truth)
            else:  # the tracer carries its value
                example(truth)
    if fact.argnums is not None:  # the parameters argnums leaves out get the values passed
        example(_checking(np.asarray, {0: [1]}))
    if _untraced_params(qualname):  # those ``given`` leaves out too
        example(_checking(np.asarray, _untraced_params(qualname)))


def _transformed_methods(qualname):
    """{method: leading arguments} of the object ``qualname`` makes, through its wrappers too."""
    if qualname in FUNCTION_TRANSFORMS:
        return FUNCTION_TRANSFORMS[qualname]
    base = next(iter(FUNCTION_TRANSFORMS))  # a wrapper: of the first transform's object
    return {method: count - FUNCTION_TRANSFORM_WRAPPERS[qualname].get(method, 0)
            for method, count in FUNCTION_TRANSFORMS[base].items()}


@pytest.mark.parametrize("qualname", sorted({*FUNCTION_TRANSFORMS, *FUNCTION_TRANSFORM_WRAPPERS}))
def test_function_transform_method_runs_the_function_after_its_leading_arguments(qualname):
    """Each method, given its leading arguments and then ``x``, calls the function with ``x``;
    under ``jax.jit(method)`` ``x`` arrives there as a tracer."""
    library = importlib.import_module(qualname.split(".")[0])
    seen = []

    def forward(x):
        seen.append(x)
        return library.Linear(2)(x)

    made = _resolve(qualname, library, qualname.split(".")[0] + ".")
    transformed = made(forward) if qualname in FUNCTION_TRANSFORMS else made(
        _resolve(next(iter(FUNCTION_TRANSFORMS)), library, qualname.split(".")[0] + ".")(forward))
    x, key = jnp.ones((1, 3)), jax.random.PRNGKey(0)
    variables = transformed.init(key, x)
    leading = {"init": [key], "apply": [*(variables if isinstance(variables, tuple) else (variables,)), key]}
    for method, count in _transformed_methods(qualname).items():
        given = leading[method][:count]
        assert len(given) == count
        seen.clear()
        getattr(transformed, method)(*given, x)
        assert seen[-1] is x
        seen.clear()
        jax.jit(getattr(transformed, method))(*given, x)
        assert isinstance(seen[-1], jax.core.Tracer)


@pytest.mark.parametrize("operation", sorted({*PYTHON_VALUE_BUILTINS, *PYTHON_VALUE_METHODS} - {"hex", "oct", "bin", "chr"}))
def test_differentiated_value_conversion_raises_under_grad_and_no_other_does(operation):
    function = getattr(builtins, operation, None) or (lambda v: getattr(v, operation)())
    differentiate = jax.grad(lambda w: (function(w), w * 2.0)[1])
    if operation in DIFFERENTIATED_VALUE_CONVERSIONS:
        # as under jit (``block_until_ready``: AttributeError, the others ConcretizationTypeError)
        with pytest.raises(_error_class(PYTHON_VALUE_METHODS.get(operation, "ConcretizationTypeError"))):
            differentiate(1.5)
    else:  # grad's tracer carries its value
        differentiate(1.5)


@pytest.mark.parametrize("qualname", sorted(NON_PYTREE_CLASS_BASES))
def test_non_pytree_base_subclass_raises_traced_and_hashes_static(qualname):
    module, _, name = qualname.rpartition(".")
    base = getattr(importlib.import_module(module), name)

    class Scaled(base):
        factor: float = 2.0

        def __call__(self, x):
            return x * self.factor

    step = lambda model, x: model(x)  # noqa: E731
    with pytest.raises(TypeError, match="The problematic value is of type"):
        jax.jit(step)(Scaled(), jnp.ones(2))
    jax.jit(step, static_argnums=0)(Scaled(), jnp.ones(2))


@pytest.mark.parametrize("qualname", sorted(TREE_MAPS))
def test_tree_map_gives_its_function_the_leaves_of_each_tree(qualname):
    """The function gets, at the fact's parameter, a leaf of the first tree (a tracer under jit),
    and the leaves of the next trees at the parameters after it."""
    (position, _), first_tree, first_param = TREE_MAPS[qualname]
    assert (position, first_tree) == (0, 1)
    tree_map = _resolve(qualname, jax, "jax.")
    seen = []

    def record(*args):
        seen.append(args[first_param:])
        return args[first_param]

    trees = ({"a": jnp.ones(2)}, {"a": jnp.zeros(2)})
    jax.jit(lambda a, b: tree_map(record, a, b))(*trees)
    assert len(seen[-1]) == 2 and all(isinstance(leaf, jax.core.Tracer) for leaf in seen[-1])
    tree_map(record, {"a": 1.0}, {"a": 2.0})
    assert seen[-1] == (1.0, 2.0)  # outside jit: the leaves as they are


@pytest.mark.parametrize("qualname", sorted(GRAPH_STATIC_JITS))
def test_graph_static_jit_traces_again_for_each_plain_attribute_value(qualname):
    """A plain attribute of a Module is static under the jit (a new value traces again); the
    same value in a Variable is traced (one trace)."""
    nnx = importlib.import_module("flax.nnx")
    jit = _resolve(qualname, importlib.import_module("flax"), "flax.")
    traces = []

    class Head(nnx.Module):
        def __init__(self):
            self.scale = 1.0
            self.held = nnx.Variable(jnp.asarray(1.0))

    @jit
    def step(model, x):
        traces.append(1)
        return x * model.scale * model.held.value

    model = Head()
    for value in (1.0, 0.5, 0.25):
        model.scale = value
        step(model, jnp.ones(2))
    assert len(traces) == 3
    traces.clear()
    for value in (1.0, 0.5, 0.25):
        model.held.value = jnp.asarray(value)
        step(model, jnp.ones(2))
    assert traces == []  # the plain value is one already traced; new Variable values add none


_TWO_ARGUMENTS = {"math.isclose", "math.hypot", "math.copysign", "math.fmod", "math.atan2", "math.pow"}


@pytest.mark.parametrize("qualname", sorted(PYTHON_CONVERTING_FUNCTIONS))
def test_python_converting_function_raises_on_a_tracer_and_its_replacement_works(qualname):
    error, instead = PYTHON_CONVERTING_FUNCTIONS[qualname]
    module, _, name = qualname.rpartition(".")
    function = getattr(importlib.import_module(module), name)
    if module == "bisect":
        call = lambda x: function([0.5, 1.5], x)  # noqa: E731
    elif qualname in _TWO_ARGUMENTS:
        call = lambda x: function(x, 0.5)  # noqa: E731
    else:
        call = function
    value = jnp.int32(1) if qualname == "operator.index" else jnp.float32(0.5)
    call(np.asarray(value).item())  # it works on a Python number
    with pytest.raises(_error_class(error)):
        jax.jit(call)(value)
    if instead:
        replacement = _resolve(instead, jax, "jax.")
        arguments = (jnp.asarray([0.5, 1.5]), value) if module == "bisect" else \
            (value, 0.5) if qualname in _TWO_ARGUMENTS else (value,)
        jax.jit(replacement)(*arguments)


@pytest.mark.parametrize("builtin", sorted(PYTHON_TRUTH_BUILTINS))
def test_python_truth_builtin_raises_on_traced_elements_and_its_replacement_works(builtin):
    error, instead = PYTHON_TRUTH_BUILTINS[builtin]
    function = getattr(builtins, builtin)
    with pytest.raises(_error_class(error)):
        jax.jit(lambda x: function([x > 0, x < 1]))(jnp.float32(0.5))
    with pytest.raises(_error_class(error)):
        jax.jit(lambda x: function(x > 0))(jnp.ones(3))
    jax.jit(lambda x: _resolve(instead, jax, "jax.")(x > 0))(jnp.ones(3))


def test_tracing_call_optional_input_left_out_gives_none():
    for qualname, fact in TRACING_CALLS.items():
        for _, index in fact.optional_inputs:
            assert qualname == "jax.lax.scan" and index == 1
            seen = []
            jax.lax.scan(lambda c, a: (seen.append(a), (c, None))[1], 0.0, None, length=2)
            assert seen == [None]


# a call of each TRACED_RESULT_CALLS entry in a numpyro model: the parameters it may pass through
TRACED_RESULT_EXAMPLES = {
    "numpyro.sample": lambda numpyro, dist, **given: numpyro.sample("s", dist.Normal(0.0, 1.0), **given),
    "numpyro.deterministic": lambda numpyro, dist, **given: numpyro.deterministic(
        "d", given.get("value", numpyro.sample("s", dist.Normal(0.0, 1.0)))),
}


def _results_in_nuts_model(qualname, **given) -> list:
    """What the call returns each time NUTS runs the model that makes it."""
    numpyro = pytest.importorskip("numpyro")
    dist, infer = importlib.import_module("numpyro.distributions"), importlib.import_module("numpyro.infer")
    seen = []

    def model():
        seen.append(TRACED_RESULT_EXAMPLES[qualname](numpyro, dist, **given))
        numpyro.sample("loc", dist.Normal(0.0, 1.0))  # a latent site for NUTS to move

    infer.MCMC(infer.NUTS(model), num_warmup=2, num_samples=2, progress_bar=False).run(jax.random.key(0))
    return seen


@pytest.mark.parametrize("qualname", sorted(TRACED_RESULT_CALLS))
def test_traced_result_call_returns_a_tracer_in_a_traced_model(qualname):
    assert set(TRACED_RESULT_EXAMPLES) == set(TRACED_RESULT_CALLS)
    results = _results_in_nuts_model(qualname)  # NUTS runs the model eagerly too, first
    assert any(isinstance(r, jax.core.Tracer) for r in results), results
    fact = TRACED_RESULT_CALLS[qualname]
    for param in (fact.passes, fact.observed):
        if param is not None:  # a NumPy value there comes back as it is, concrete
            function = _resolve(qualname, importlib.import_module("numpyro"), "numpyro.")
            assert list(inspect.signature(function).parameters).index(param[1]) == param[0]
            data = np.array([0.5, 1.5])
            assert all(r is data for r in _results_in_nuts_model(qualname, **{param[1]: data}))


def test_numpyro_param_is_concrete_under_nuts_so_it_is_no_traced_result_call():
    numpyro = pytest.importorskip("numpyro")
    assert "numpyro.param" not in TRACED_RESULT_CALLS
    dist, infer = importlib.import_module("numpyro.distributions"), importlib.import_module("numpyro.infer")
    seen = []

    def model():
        seen.append(numpyro.param("p", 1.0))
        numpyro.sample("loc", dist.Normal(0.0, 1.0))

    infer.MCMC(infer.NUTS(model), num_warmup=2, num_samples=2, progress_bar=False).run(jax.random.key(0))
    assert seen and not any(isinstance(p, jax.core.Tracer) for p in seen), seen


NUMPY_EXAMPLES = {"numpy.tile": lambda v: np.tile(v, 2),  # a traced `reps` raises another error
                  "numpy.polyfit": lambda v: np.polyfit(np.arange(3.0), v, 1)}


def test_sequence_converting_function_raises_on_a_sequence_holding_a_tracer_only():
    for qualname in sorted(SEQUENCE_CONVERTING_FUNCTIONS):
        function = _resolve(qualname, jnp, "jax.numpy.")
        for sequence in (lambda v: [v, v], lambda v: (v, 2.0)):
            with pytest.raises(jax.errors.TracerArrayConversionError):
                jax.jit(lambda v: jnp.sum(jnp.asarray(function(sequence(v)))))(1.0)
        jax.jit(lambda v: jnp.sum(jnp.asarray(function(v))))(jnp.ones(2))  # an array: fine
        assert function([1.0, 2.0]) is not None  # concrete items: fine


@pytest.mark.parametrize("qualname", sorted(NUMPY_CONVERTING_FUNCTIONS))
def test_numpy_converting_function_raises_on_a_tracer(qualname):
    function = _resolve(qualname, np, "numpy.")
    error = _error_class(NUMPY_CONVERTING_FUNCTIONS[qualname])
    x = jnp.arange(1.0, 4.0)
    if qualname in NUMPY_EXAMPLES:
        with pytest.raises(error):
            jax.jit(NUMPY_EXAMPLES[qualname])(x)
        return
    # the first arity that numpy accepts: each argument the tracer
    for count in (1, 2, 3):
        try:
            jax.jit(lambda v, n=count: function(*[v] * n))(x)
        except error:
            return
        except (TypeError, ValueError):
            continue  # wrong arity or argument kind for this function
    pytest.fail(f"{qualname} did not raise {error.__name__} on a tracer")


NUMPY_METHOD_ARGUMENTS = {"numpy.reshape": (-1,), "numpy.repeat": (2,), "numpy.swapaxes": (0, 1)}


@pytest.mark.parametrize("qualname", sorted(NUMPY_ARRAY_METHOD_FUNCTIONS))
def test_numpy_array_method_function_returns_a_tracer_under_jit(qualname):
    function = _resolve(qualname, np, "numpy.")
    results = []

    def example(v):
        results.append(function(v, *NUMPY_METHOD_ARGUMENTS.get(qualname, ())))
        return v

    jax.jit(example)(jnp.ones((2, 2)))
    assert isinstance(results[0], jax.core.Tracer)


@pytest.mark.parametrize("prefix", sorted(NUMPY_CONVERTING_SUBMODULES))
def test_numpy_converting_submodule_raises_on_a_tracer(prefix):
    scipy_special = pytest.importorskip("scipy.special")
    function = {"numpy.linalg.": np.linalg.norm, "numpy.fft.": np.fft.fft, "scipy.": scipy_special.expit,
                "numpy.polynomial.": np.polynomial.polynomial.polyfromroots}[prefix]
    with pytest.raises(_error_class(NUMPY_CONVERTING_SUBMODULES[prefix])):
        jax.jit(lambda v: function(v))(jnp.eye(2))


@pytest.mark.parametrize("prefix", sorted(NUMPY_MODULES_WITHOUT_JAX_TWIN))
def test_numpy_module_without_jax_twin_is_missing_from_jax_and_its_hint_exists(prefix):
    module = prefix.removeprefix("numpy.").rstrip(".")
    assert not hasattr(jnp, module)  # ``jax.<qualname>`` would be advice to call nothing
    hint = NUMPY_MODULES_WITHOUT_JAX_TWIN[prefix]
    for name in ("poly", "polyval", "polyder"):
        assert name in hint and callable(getattr(jnp, name))


_SCIPY_ARRAY_API_RUN = """
import importlib, os, sys
os.environ["SCIPY_ARRAY_API"] = "1"
import jax, jax.numpy as jnp
import scipy.stats
from scipy._lib._array_api import xp_capabilities_table
sys.path.insert(0, sys.argv[1])
from scipy_capabilities import jits_on_jax
from jitlint.jaxfacts import SCIPY_JAX_JIT_FUNCTIONS

def public(name):
    module_name, attrs = name, []
    while True:
        try:
            value = importlib.import_module(module_name)
            break
        except ImportError:
            module_name, _, attr = module_name.rpartition(".")
            attrs.insert(0, attr)
    for attr in attrs:
        value = getattr(value, attr)
    return getattr(value, "__func__", value)

x = jnp.array([3.0, 1.0, 2.0, 5.0])
print(float(jax.jit(scipy.stats.tmean)(x)))
try:
    jax.jit(scipy.stats.rankdata)(x)
except Exception as error:
    print(type(error).__name__)
print([n for n in sorted(SCIPY_JAX_JIT_FUNCTIONS) if not jits_on_jax(xp_capabilities_table.get(public(n), {}))])
"""


def test_scipy_array_api_functions_run_under_jit_only_where_the_table_says():
    """With SCIPY_ARRAY_API=1, a function of SCIPY_JAX_JIT_FUNCTIONS (scipy.stats.tmean) runs on
    a tracer and one outside it (rankdata) still fails while tracing (here on a boolean mask); every listed name is a function of the
    installed SciPy that SciPy's own capability table marks as running on JAX under jit."""
    pytest.importorskip("scipy")
    assert "scipy.stats.tmean" in SCIPY_JAX_JIT_FUNCTIONS and "scipy.stats.rankdata" not in SCIPY_JAX_JIT_FUNCTIONS
    run = subprocess.run([sys.executable, "-c", _SCIPY_ARRAY_API_RUN, str(ROOT / "benchmarks")],
                         capture_output=True, text=True, env={**os.environ, "JAX_PLATFORMS": "cpu"}, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split("\n")[:3] == ["2.75", "NonConcreteBooleanIndexError", "[]"], run.stdout


def _numpy_converting_object(qualname: str):
    """The object ``qualname`` builds, for a problem whose solution is all ones, with what its
    method is given besides the initial value."""
    jaxopt = pytest.importorskip("jaxopt")
    cls = getattr(jaxopt, qualname.removeprefix("jaxopt."))
    bounds = ((jnp.zeros(2) - 5.0, jnp.ones(2) * 5.0),) if "Bounded" in qualname else ()
    if "RootFinding" in qualname:
        return cls(optimality_fun=lambda w: w - 1.0, method="hybr"), bounds
    if "LeastSquares" in qualname:
        return cls(fun=lambda w: w - 1.0, method="trf"), bounds
    return cls(fun=lambda w: jnp.sum((w - 1.0) ** 2), method="L-BFGS-B"), bounds


@pytest.mark.parametrize("qualname", sorted(NUMPY_CONVERTING_METHODS))
def test_numpy_converting_method_works_eagerly_and_raises_on_a_tracer(qualname):
    built, rest = _numpy_converting_object(qualname)
    method = getattr(built, NUMPY_CONVERTING_METHODS[qualname][0])
    assert np.allclose(method(jnp.zeros(2), *rest).params, 1.0, atol=1e-3)
    for transform in (jax.jit, jax.vmap):
        with pytest.raises(jax.errors.TracerArrayConversionError):
            transform(lambda w: method(w, *rest).params)(jnp.zeros(2) if transform is jax.jit else jnp.zeros((2, 2)))


_ONES = jnp.ones(3)  # every check passes on it
_STAGINGS = {
    "jax.lax.scan": lambda f: jax.lax.scan(lambda c, x: (c, f(x)), 0.0, jnp.ones((2, 3))),
    "jax.lax.fori_loop": lambda f: jax.lax.fori_loop(0, 2, lambda i, c: c + f(_ONES), 0.0),
    "jax.lax.while_loop": lambda f: jax.lax.while_loop(lambda c: c < 1.0, lambda c: c + f(_ONES), 0.0),
    "jax.lax.cond": lambda f: jax.lax.cond(True, f, f, _ONES),
    "jax.lax.switch": lambda f: jax.lax.switch(0, [f, f], _ONES),
    "jax.lax.map": lambda f: jax.lax.map(f, jnp.ones((2, 3))),
    "jax.pmap": lambda f: jax.pmap(f)(jnp.ones((1, 3))),
}


@pytest.mark.parametrize("qualname", sorted(UNFUNCTIONALIZED_CALLS))
def test_unfunctionalized_call_raises_when_staged_and_runs_when_functionalized(qualname):
    fact = UNFUNCTIONALIZED_CALLS[qualname]
    module, name = qualname.rsplit(".", 1)
    call = getattr(importlib.import_module(module), name)
    functionalize = getattr(importlib.import_module(fact.functionalized_by.rsplit(".", 1)[0]),
                            fact.functionalized_by.rsplit(".", 1)[1])

    def f(x):
        call(jnp.all(x > 0), "negative")
        return jnp.sum(x)

    assert set(_STAGINGS) == set(STAGING_TRACES)
    for jit in (jax.jit, importlib.import_module("equinox").filter_jit):
        with pytest.raises(_error_class(fact.error), match="functionalized"):
            jit(f)(_ONES)
    for qualname_staging, staging in _STAGINGS.items():
        with pytest.raises(_error_class(fact.error), match="functionalized"):
            staging(f)
    with pytest.raises(_error_class(fact.error), match="functionalized"):  # a constant predicate too
        jax.jit(lambda x: (call(True, "constant"), x)[1])(_ONES)
    jax.vmap(f)(jnp.ones((2, 3)))  # not staged: the check runs
    jax.grad(f)(_ONES)
    jax.eval_shape(f, _ONES)
    for wrapped in (functionalize(jax.jit(f)), jax.jit(functionalize(f))):
        err, out = wrapped(_ONES)
        err.throw()
        assert float(out) == 3.0


def _nnx_layer(qualname: str, **keywords):
    nnx = pytest.importorskip("flax.nnx")
    cls = getattr(nnx, qualname.removeprefix("flax.nnx."))
    return cls(*(() if qualname.endswith("Dropout") else (5,)), **({"rate": 0.5} if qualname.endswith("Dropout") else {}),
               rngs=nnx.Rngs(0), **keywords)


@pytest.mark.parametrize("qualname", sorted(NNX_SELF_UPDATING_LAYERS))
def test_nnx_self_updating_layer_raises_when_a_jit_closes_over_it(qualname):
    nnx = pytest.importorskip("flax.nnx")
    x = jnp.ones((3, 5))
    for jit in (jax.jit, nnx.jit):
        layer = _nnx_layer(qualname)
        with pytest.raises(Exception, match="TraceContextError|Cannot mutate") as caught:
            jit(lambda v: layer(v))(x)
        assert type(caught.value).__name__ == "TraceContextError"
        quiet = _nnx_layer(qualname, **{NNX_SELF_UPDATING_LAYERS[qualname]: True})  # built with the update off
        jit(lambda v: quiet(v))(x)
    for switch in NNX_UPDATE_SWITCHES:  # switched off, the closed-over layer updates nothing
        layer = _nnx_layer(qualname)
        getattr(layer, switch)(**({NNX_SELF_UPDATING_LAYERS[qualname]: True} if switch == "set_attributes" else {}))
        jax.jit(lambda v: layer(v))(x)


@pytest.mark.parametrize("qualname", sorted(NNX_GRAPH_TRANSFORMS))
def test_nnx_graph_transform_of_a_closed_over_module_raises_inside_a_jit(qualname):
    """``T(f)(model, x)`` inside a jit that reads ``model`` from outside raises the recorded
    error; with ``model`` an argument of the jitted function it runs."""
    nnx = pytest.importorskip("flax.nnx")
    transform = getattr(nnx, qualname.rpartition(".")[2])
    x = jnp.ones((4, 2))
    keywords = {"in_axes": (None, 0)} if qualname.endswith("vmap") else {}

    def applied(module, v):
        return transform(lambda m, row: jnp.sum(m(row)), **keywords)(module, v)

    for jit in (jax.jit, nnx.jit):
        closed = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
        with pytest.raises(Exception) as caught:
            jit(lambda v: applied(closed, v))(x)
        assert type(caught.value).__name__ == NNX_GRAPH_TRANSFORMS[qualname]
    passed = nnx.Linear(2, 1, rngs=nnx.Rngs(0))
    nnx.jit(applied)(passed, x)


@pytest.mark.parametrize("qualname", sorted(STATIC_STATE_FIELDS))
def test_static_state_fields_are_structure_and_a_new_object_there_compiles_again(qualname):
    import dataclasses

    optax = pytest.importorskip("optax")
    module, _, name = qualname.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    static = {f.name for f in dataclasses.fields(cls) if not f.metadata.get("pytree_node", True)}
    assert STATIC_STATE_FIELDS[qualname] <= static
    state = cls.create(apply_fn=lambda p, x: x * p, params=jnp.ones(2), tx=optax.adam(0.1))
    step = jax.jit(lambda s: s.replace(step=s.step + 1))
    assert _compiles(lambda: step(state)) == 1
    assert _compiles(lambda: step(state.replace(opt_state=state.tx.init(state.params)))) == 0
    for field in STATIC_STATE_FIELDS[qualname]:  # an equal-looking new object: a new cache key
        fresh = optax.adam(0.1) if field == "tx" else (lambda p, x: x * p)
        assert _compiles(lambda: step(state.replace(**{field: fresh}))) == 1


@pytest.mark.parametrize("qualname", sorted(__import__("jitlint.jaxfacts", fromlist=["x"]).CACHE_CLEARING_CALLS))
def test_cache_clearing_call_makes_a_jitted_function_compile_again(qualname):
    clear = _resolve(qualname, jax, "jax.")
    step = jax.jit(lambda x: x * 2.0 + 1.0)
    x = jnp.ones(3)
    assert _compiles(lambda: step(x)) == 1
    assert _compiles(lambda: step(x)) == 0
    clear()
    assert _compiles(lambda: step(x)) == 1  # the same jit object, the same argument: compiled again


@pytest.mark.parametrize("qualname", sorted(NNX_MODE_LAYERS))
def test_nnx_mode_switch_sets_the_layer_attribute_and_persists_out_of_nnx_jit(qualname):
    nnx = pytest.importorskip("flax.nnx")
    cls = getattr(nnx, qualname.removeprefix("flax.nnx."))
    attribute = NNX_MODE_LAYERS[qualname]

    class Holder(nnx.Module):
        def __init__(self):
            rngs = nnx.Rngs(0)
            self.layer = (cls(0.5, rngs=rngs) if qualname.endswith("Dropout") else
                          cls(num_heads=1, in_features=4, decode=False, rngs=rngs)
                          if qualname.endswith("MultiHeadAttention") else cls(4, rngs=rngs))

    holder = Holder()
    for method, value in NNX_MODE_SWITCHES.items():  # each switch sets the layer's static attribute
        getattr(holder, method)()
        assert getattr(holder.layer, attribute) is value
    holder.train()

    @nnx.jit
    def switch(module, x):
        module.eval()
        return x + 1

    @nnx.jit
    def other(module, x):
        return x * 2

    x = jnp.ones(3)
    assert _compiles(lambda: other(holder, x)) == 1
    switch(holder, x)
    assert getattr(holder.layer, attribute) is True  # the switch made inside nnx.jit persists
    assert _compiles(lambda: other(holder, x)) == 1  # a new graph definition: compiled again
    assert _compiles(lambda: other(holder, x)) == 0


@pytest.mark.parametrize("qualname", sorted(NUMPY_KEEPING_JNP_FUNCTIONS))
def test_numpy_keeping_jnp_function_returns_numpy_and_its_result_rejects_a_tracer_index(qualname):
    function = getattr(jnp, qualname.removeprefix("jax.numpy."))
    assert isinstance(function(np.zeros(10), (2, 5)), np.ndarray)
    with pytest.raises(jax.errors.TracerArrayConversionError):
        jax.jit(lambda i: function(np.zeros(10), (2, 5))[:, i])(1)
    for other in (jnp.transpose, jnp.ravel, jnp.squeeze):  # others make jax arrays
        assert not isinstance(other(np.zeros((2, 5))), np.ndarray)


# --- library calls that run lax control flow inside ---------------------------------------------

_COMPILES: list[str] = []


@pytest.fixture(scope="module")
def compiles() -> list[str]:
    """Every backend compile from here on (one listener for the module)."""
    def listener(event, duration_secs, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            _COMPILES.append(kwargs.get("fun_name"))
    jax.monitoring.register_event_duration_secs_listener(listener)
    return _COMPILES


def _quadratic_twice(x):
    return 2.0 * _quadratic(x)


def _quadratic(x):
    return jnp.sum((x - 1.0) ** 2)


def _optax_step(make):
    """One eager optimizer step of ``make()`` on a quadratic (value and gradient given)."""
    optax = pytest.importorskip("optax")
    transformation = make(optax)
    box = [jnp.zeros(3), None]
    box[1] = transformation.init(box[0])

    def step():
        params, state = box
        value, grad = jax.value_and_grad(_quadratic)(params)
        extra = (dict(value=value, grad=grad, value_fn=_quadratic)
                 if isinstance(transformation, optax.GradientTransformationExtraArgs) else {})
        updates, state = transformation.update(grad, state, params, **extra)
        box[:] = [optax.apply_updates(params, updates), state]
    return step


def _value_and_grad_from_state():
    """A call of the function ``optax.value_and_grad_from_state`` returns, built once."""
    optax = pytest.importorskip("optax")
    transformation = optax.chain(optax.sgd(1.0), optax.scale_by_backtracking_linesearch(15, store_grad=True))
    params = jnp.ones(3)
    state = transformation.init(params)
    value_and_grad = optax.value_and_grad_from_state(_quadratic)
    return lambda: value_and_grad(params, state=state)


def _blackjax_step(algorithm: str):
    """One eager step of a blackjax sampling algorithm (``alg.step``, or the kernel of
    ``build_kernel()`` for a qualname ending in it), each on a new key, built at the first call."""
    box: list = []

    def step():
        if not box:
            blackjax = pytest.importorskip("blackjax")
            name, _, built = algorithm.removeprefix("blackjax.").removeprefix("mcmc.").partition(".")
            api = getattr(blackjax, name)
            arguments = {"nuts": (0.1, jnp.ones(2)), "hmc": (0.1, jnp.ones(2), 5), "mala": (0.1,),
                         "rmh": (blackjax.mcmc.random_walk.normal(0.1),),
                         "additive_step_random_walk": (blackjax.mcmc.random_walk.normal(0.1),)}[name]
            if built:  # the kernel build_kernel() returns, given the density and parameters
                kernel = getattr(api, built)()
                advance = lambda key, state: kernel(key, state, _gaussian_logdensity, *arguments)  # noqa: E731
            else:
                advance = api(_gaussian_logdensity, *arguments).step
            box[:] = [advance, api.init(jnp.ones(2), _gaussian_logdensity), 0]
        advance, state, count = box
        box[1:] = [advance(jax.random.key(count), state)[0], count + 1]
    return step


def _gaussian_logdensity(x):
    return -0.5 * jnp.sum(x ** 2)


def _lax_loop_examples():
    importlib.import_module("jax.scipy.optimize")
    importlib.import_module("jax.scipy.sparse.linalg")
    a, b = jnp.eye(3) * 2.0, jnp.ones(3)
    sgd = lambda optax: optax.sgd(0.1)  # noqa: E731
    return {
        "optax.lbfgs": _optax_step(lambda optax: optax.lbfgs()),
        "optax.scale_by_lbfgs": _optax_step(lambda optax: optax.scale_by_lbfgs()),
        "optax.scale_by_zoom_linesearch": _optax_step(lambda optax: optax.scale_by_zoom_linesearch(10)),
        "optax.scale_by_backtracking_linesearch": _optax_step(lambda optax: optax.chain(
            sgd(optax), optax.scale_by_backtracking_linesearch(10))),
        "optax.MultiSteps": _optax_step(lambda optax: optax.MultiSteps(sgd(optax), 2)),
        "optax.apply_if_finite": _optax_step(lambda optax: optax.apply_if_finite(sgd(optax), 3)),
        "optax.contrib.reduce_on_plateau": _optax_step(lambda optax: optax.chain(
            sgd(optax), optax.contrib.reduce_on_plateau())),
        "optax.value_and_grad_from_state": _value_and_grad_from_state(),
        "jax.lax.map": lambda: jax.lax.map(_quadratic, jnp.ones((4, 3))),
        "jax.scipy.optimize.minimize": lambda: jax.scipy.optimize.minimize(
            _quadratic, jnp.zeros(3), method="BFGS"),
        "flax.nnx.cond": lambda: importlib.import_module("flax.nnx").cond(
            True, _quadratic, _quadratic_twice, jnp.ones(3)),
        "flax.nnx.switch": lambda: importlib.import_module("flax.nnx").switch(
            1, (_quadratic, _quadratic_twice), jnp.ones(3)),
        "jax.scipy.sparse.linalg.cg": lambda: jax.scipy.sparse.linalg.cg(a, b),
        "jax.scipy.sparse.linalg.gmres": lambda: jax.scipy.sparse.linalg.gmres(a, b),
        "jax.scipy.sparse.linalg.bicgstab": lambda: jax.scipy.sparse.linalg.bicgstab(a, b),
        **{name: _blackjax_step(name) for name in LAX_LOOP_LIBRARY_CALLS if name.startswith("blackjax.")},
        **{name: _jaxopt_run(name) for name in LAX_LOOP_LIBRARY_CALLS if name.startswith("jaxopt.")},
        "numpyro.infer.MCMC": _mcmc_run(progress_bar=False),
    }


def _mcmc_run(**keywords):
    """A ``run`` of a numpyro MCMC built once (with ``keywords``), on a new key each time."""
    numpyro = pytest.importorskip("numpyro")
    from numpyro.infer import MCMC, NUTS

    def model(y=None):
        mu = numpyro.sample("mu", numpyro.distributions.Normal(0.0, 1.0))
        numpyro.sample("y", numpyro.distributions.Normal(mu, 1.0), obs=y)

    mcmc = MCMC(NUTS(model), num_warmup=5, num_samples=5, **keywords)
    runs = iter(range(100))
    return lambda: mcmc.run(jax.random.PRNGKey(next(runs)), y=jnp.ones(4))


@pytest.mark.parametrize("qualname", sorted(q for q, fact in LAX_LOOP_LIBRARY_CALLS.items() if fact.when))
def test_lax_loop_library_call_caches_without_its_condition(qualname, compiles, monkeypatch):
    """Built without the recorded keywords (``when``) and as the advice says, later calls
    compile nothing."""
    assert qualname == "numpyro.infer.MCMC"  # the one conditional fact; its example below
    for variable in ("CI", "PYTEST_XDIST_WORKER"):  # numpyro turns the progress bar off there
        monkeypatch.delenv(variable, raising=False)
    assert "jit_model_args=True" in LAX_LOOP_LIBRARY_CALLS[qualname].fix
    call = _mcmc_run(jit_model_args=True)
    call()
    before = len(compiles)
    call()
    assert len(compiles) == before, compiles[before:]


@pytest.mark.parametrize("qualname", sorted(q for q, fact in LAX_LOOP_LIBRARY_CALLS.items() if fact.fresh_data_unless))
def test_lax_loop_library_call_compiles_again_on_fresh_data_without_its_keyword(qualname, compiles, monkeypatch):
    """Built without ``fresh_data_unless`` (and with the progress bar on), a run on data made
    anew compiles again; with that keyword, the same runs compile nothing more."""
    assert qualname == "numpyro.infer.MCMC"  # the one such fact; its example is _mcmc_run
    for variable in ("CI", "PYTEST_XDIST_WORKER"):
        monkeypatch.delenv(variable, raising=False)
    keyword, value = LAX_LOOP_LIBRARY_CALLS[qualname].fresh_data_unless
    assert (keyword, value) == ("jit_model_args", "True")
    assert f"{keyword}={value}" in LAX_LOOP_LIBRARY_CALLS[qualname].fresh_data_fix
    for keywords, recompiles in (({}, True), ({keyword: True}, False)):
        call = _mcmc_run(**keywords)  # each run gets a new ``jnp.ones(4)``
        call()
        before = len(compiles)
        call()
        assert (len(compiles) > before) is recompiles, (keywords, compiles[before:])


def _jaxopt_run(solver: str):
    """An eager ``run`` of a jaxopt solver built once (least squares ones get residuals)."""
    jaxopt = pytest.importorskip("jaxopt")
    least_squares = solver in ("jaxopt.GaussNewton", "jaxopt.LevenbergMarquardt")
    built = getattr(jaxopt, solver.removeprefix("jaxopt."))(
        (lambda w: w - 1.0) if least_squares else _quadratic, maxiter=5)
    return lambda: built.run(jnp.zeros(3))


@pytest.mark.parametrize("qualname", sorted(LAX_LOOP_LIBRARY_CALLS))
def test_lax_loop_library_call_compiles_on_every_eager_call(qualname, compiles):
    fact = LAX_LOOP_LIBRARY_CALLS[qualname]
    package, _, path = qualname.partition(".")
    target = _resolve(path, pytest.importorskip(package), "")
    if qualname.startswith("blackjax.mcmc."):
        importlib.import_module(qualname.rpartition(".")[0])
    if fact.method:
        # (blackjax's algorithms are API objects, not functions: the example calls their ``step``)
        assert callable(getattr(target, fact.method, None)) or fact.method in inspect.getsource(target) \
            if inspect.isroutine(target) or inspect.isclass(target) else qualname.startswith("blackjax.")
    call = _lax_loop_examples()[qualname]
    call()  # the first call compiles everything else it needs (the value and gradient ...)
    before = len(compiles)
    call()  # a later call compiles its loops again (a cached program would compile nothing)
    assert len(compiles) - before == fact.compiles_per_call, compiles[before:]
    # jitted once, the same calls compile once in all
    jitted = jax.jit(lambda: call()) if not fact.method else None
    if jitted is not None:
        jitted()
        before = len(compiles)
        jitted()
        assert len(compiles) == before


@pytest.mark.parametrize("qualname", sorted(OPTAX_COMBINATORS))
def test_optax_combinator_exists(qualname):
    optax = pytest.importorskip("optax")
    assert callable(getattr(optax, qualname.removeprefix("optax.")))


@pytest.mark.parametrize("qualname", sorted(PYTREE_REGISTRATIONS))
def test_pytree_registration_makes_self_a_valid_jit_argument(qualname):
    """A plain class whose method is ``@jax.jit``: TypeError on the first call, until the class
    is registered (measured for each registration call)."""
    import dataclasses

    @dataclasses.dataclass
    class Scaled:
        x: jax.Array
        mul: float = 2.0

        @jax.jit
        def calc(self, y):
            return self.x * y * self.mul

    with pytest.raises(TypeError):
        Scaled(jnp.ones(2)).calc(3.0)
    register = _resolve(qualname, jax, "jax.")
    flatten = lambda obj: ((obj.x,), obj.mul)  # noqa: E731
    unflatten = lambda mul, children: Scaled(*children, mul)  # noqa: E731
    arguments = {
        "jax.tree_util.register_pytree_node": (flatten, unflatten),
        "jax.tree_util.register_pytree_with_keys": (
            lambda obj: (((jax.tree_util.GetAttrKey("x"), obj.x),), obj.mul), unflatten),
        "jax.tree_util.register_pytree_node_class": (),
        "jax.tree_util.register_dataclass": (["x"], ["mul"]),
        "jax.tree_util.register_static": (),
    }[qualname]
    if qualname == "jax.tree_util.register_pytree_node_class":
        Scaled.tree_flatten = flatten
        Scaled.tree_unflatten = classmethod(lambda cls, mul, children: unflatten(mul, children))
    if qualname == "jax.tree_util.register_static":  # a static pytree: hashable, no array leaves
        Scaled.__hash__ = lambda self: hash(self.mul)
        register(Scaled)
        assert Scaled(1.0).calc(3.0) == 6.0
        return
    register(Scaled, *arguments)
    assert jnp.allclose(Scaled(jnp.ones(2)).calc(3.0), 6.0)


# ---------------------------------------------------------------------------- argument types
_EQUINOX_ARGUMENTS = {  # how each library object of the tables is built for the checks
    "equinox.nn.Linear": lambda nn, key: nn.Linear(2, 2, key=key),
    "equinox.nn.MLP": lambda nn, key: nn.MLP(2, 2, 4, 1, key=key),
    "equinox.nn.MultiheadAttention": lambda nn, key: nn.MultiheadAttention(2, 4, key=key),
    "equinox.nn.Conv1d": lambda nn, key: nn.Conv1d(1, 1, 3, key=key),
    "equinox.nn.Conv2d": lambda nn, key: nn.Conv2d(1, 1, 3, key=key),
    "equinox.nn.Conv3d": lambda nn, key: nn.Conv3d(1, 1, 3, key=key),
    "equinox.nn.Embedding": lambda nn, key: nn.Embedding(3, 2, key=key),
    "equinox.nn.GRUCell": lambda nn, key: nn.GRUCell(2, 2, key=key),
    "equinox.nn.LSTMCell": lambda nn, key: nn.LSTMCell(2, 2, key=key),
    "equinox.nn.Lambda": lambda nn, key: nn.Lambda(lambda x: x),
    "equinox.nn.Dropout": lambda nn, key: nn.Dropout(p=0.1),
    "equinox.nn.Pool": lambda nn, key: nn.Pool(-jnp.inf, jax.lax.max, 2, 2),
    **{f"equinox.nn.{pool}{n}d": lambda nn, key, name=f"{pool}{n}d": getattr(nn, name)(2)
       for pool in ("MaxPool", "AvgPool", "AdaptiveMaxPool", "AdaptiveAvgPool") for n in (1, 2, 3)},
}


def _equinox_object(qualname: str):
    eqx = pytest.importorskip("equinox")
    return _EQUINOX_ARGUMENTS[qualname](eqx.nn, jax.random.PRNGKey(0))


def _array_leaf_call(key: str, position: int, value):
    """Call ``key`` (an ARRAY_LEAF_PARAMS entry) with ``value`` at ``position``; the functions
    it is given never read the value, so what raises is the tracing of its leaves."""
    def identity(*args):
        return args[-1]
    if key.startswith("jaxopt."):
        solver = _resolve(key.rsplit(".", 1)[0], pytest.importorskip("jaxopt"), "jaxopt.")
        fun = (lambda p: jnp.ones(2)) if "Levenberg" in key or "Gauss" in key else (lambda p: jnp.float32(0.0))
        return solver(fun, maxiter=2).run(value)
    if key.startswith("optimistix."):
        optx = pytest.importorskip("optimistix")
        solvers = {"minimise": (lambda y, a: jnp.float32(0.0), optx.BFGS(1e-3, 1e-3)),
                   "least_squares": (lambda y, a: jnp.ones(2), optx.LevenbergMarquardt(1e-3, 1e-3)),
                   "root_find": (lambda y, a: y, optx.Newton(1e-3, 1e-3)),
                   "fixed_point": (lambda y, a: y, optx.FixedPointIteration(1e-3, 1e-3))}
        fn, solver = solvers[key.rsplit(".", 1)[1]]
        return _resolve(key, optx, "optimistix.")(fn, solver, value, max_steps=2, throw=False)
    args = {"jax.lax.scan": [lambda c, x: (c, x), jnp.ones(2), jnp.ones(2)],
            "jax.lax.fori_loop": [0, 2, identity, jnp.ones(2)],
            "jax.lax.while_loop": [lambda c: False, identity, jnp.ones(2)]}[key]
    args[position] = value
    return _resolve(key, jax, "jax.")(*args)


STAGED_LIBRARY_EXAMPLES = {
    "equinox.error_if": lambda eqx, c: eqx.error_if(c, c < 0, "negative"),
    "equinox.branched_error_if": lambda eqx, c: eqx.branched_error_if(c, c < 0, 0, ["negative"]),
}


@pytest.mark.parametrize("qualname", sorted(STAGED_LIBRARY_FUNCTIONS))
def test_staged_library_function_returns_a_tracer_for_constants_under_jit(qualname):
    eqx = pytest.importorskip("equinox")
    assert set(STAGED_LIBRARY_EXAMPLES) == set(STAGED_LIBRARY_FUNCTIONS)
    _resolve(qualname, eqx, "equinox.")  # the name exists
    constant = jnp.arange(3.0)
    seen = []
    jax.jit(lambda x: seen.append(STAGED_LIBRARY_EXAMPLES[qualname](eqx, constant)) or x)(1.0)
    assert isinstance(seen[0], jax.core.Tracer)
    assert not isinstance(STAGED_LIBRARY_EXAMPLES[qualname](eqx, constant), jax.core.Tracer)  # eagerly


@pytest.mark.parametrize("qualname", sorted(ARRAY_NAMESPACE_GETTERS))
def test_array_namespace_getter_returns_jax_numpy_for_a_tracer(qualname):
    compat = pytest.importorskip("array_api_compat")
    getter = _resolve(qualname, compat, "array_api_compat.")
    seen = []
    jax.jit(lambda x: seen.append(getter(x)) or x)(jnp.ones(2))
    assert seen[0] is jnp  # so ``xp.sum(mask)`` is a jax.numpy call: a tracer under the trace
    assert getter(np.ones(2)) is not jnp  # NumPy arrays get a NumPy namespace


AXIS_COLLECTIVE_EXAMPLES = {
    "jax.lax.psum": lambda n: lambda x: jax.lax.psum(x, n),
    "jax.lax.pmean": lambda n: lambda x: jax.lax.pmean(x, n),
    "jax.lax.pmax": lambda n: lambda x: jax.lax.pmax(x, n),
    "jax.lax.pmin": lambda n: lambda x: jax.lax.pmin(x, n),
    "jax.lax.all_gather": lambda n: lambda x: jax.lax.all_gather(x, n),
    "jax.lax.psum_scatter": lambda n: lambda x: jax.lax.psum_scatter(x, n, tiled=True),
    "jax.lax.all_to_all": lambda n: lambda x: jax.lax.all_to_all(x, n, 0, 0, tiled=True),
    "jax.lax.axis_index": lambda n: lambda x: x + jax.lax.axis_index(n),
}


@pytest.mark.parametrize("qualname", sorted(AXIS_NAME_COLLECTIVES))
def test_axis_collective_raises_name_error_where_no_map_binds_its_axis(qualname):
    assert set(AXIS_COLLECTIVE_EXAMPLES) == set(AXIS_NAME_COLLECTIVES)
    position, keyword = AXIS_NAME_COLLECTIVES[qualname]
    assert list(inspect.signature(_resolve(qualname, jax, "jax.")).parameters)[position] == keyword
    x = jnp.ones((1, 2))
    for transform in (jax.vmap, jax.pmap):
        transform(AXIS_COLLECTIVE_EXAMPLES[qualname]("i"), axis_name="i")(x)
        with pytest.raises(NameError, match="unbound axis name"):
            transform(AXIS_COLLECTIVE_EXAMPLES[qualname]("i"))(x)
        with pytest.raises(NameError, match="unbound axis name"):
            transform(AXIS_COLLECTIVE_EXAMPLES[qualname]("i"), axis_name="j")(x)


@pytest.mark.parametrize("qualname", sorted(AXIS_BINDING_TRANSFORMS))
def test_axis_binding_transform_binds_the_name_it_is_given(qualname):
    root = importlib.import_module(qualname.split(".")[0])
    transform = _resolve(qualname, root, qualname.split(".")[0] + ".")
    position, keyword = AXIS_BINDING_TRANSFORMS[qualname]
    assert list(inspect.signature(transform).parameters)[position] == keyword
    x = jnp.ones((1, 2))
    transform(lambda v: jax.lax.psum(v, "i"), **{keyword: "i"})(x)
    with pytest.raises(NameError, match="unbound axis name"):
        transform(lambda v: jax.lax.psum(v, "i"))(x)


@pytest.mark.parametrize("method", sorted(LIST_RETURNING_METHODS))
def test_list_returning_method_gives_an_unhashable_static_argument(method):
    """``x.tolist()`` of a NumPy or JAX array of one or more axes is a list: as a static
    argument it raises ValueError (non-hashable static argument)."""
    f = jax.jit(lambda x, grid: x, static_argnums=1)
    for array in (np.ones((2, 3), np.int32), jnp.ones((2, 3), jnp.int32), np.arange(3)):
        value = getattr(array, method)()
        assert isinstance(value, list)
        with pytest.raises(ValueError, match="hashable"):
            f(1.0, value)


@pytest.mark.parametrize("qualname", sorted(ARRAY_RETURNING_KEY_FUNCTIONS))
def test_array_returning_key_function_gives_an_unhashable_static_argument(qualname):
    key = _resolve(qualname, jax, "jax.")(0)
    assert isinstance(key, jax.Array)
    with pytest.raises(ValueError, match="hashable"):
        jax.jit(lambda x, k: x, static_argnums=1)(1.0, key)


DICT_RETURNING_EXAMPLES = {
    "haiku.data_structures.merge": lambda hk, flax, p: hk.data_structures.merge(p, {"b": {"w": jnp.ones(2)}}),
    "haiku.data_structures.to_mutable_dict": lambda hk, flax, p: hk.data_structures.to_mutable_dict(p),
    "haiku.data_structures.filter": lambda hk, flax, p: hk.data_structures.filter(lambda m, n, v: True, p),
    "flax.core.unfreeze": lambda hk, flax, p: flax.core.unfreeze(flax.core.freeze(p)),
    "flax.core.frozen_dict.unfreeze": lambda hk, flax, p: flax.core.frozen_dict.unfreeze(flax.core.freeze(p)),
}


@pytest.mark.parametrize("qualname", sorted(DICT_RETURNING_FUNCTIONS))
def test_dict_returning_function_gives_an_unhashable_static_argument(qualname):
    hk = pytest.importorskip("haiku")
    flax = pytest.importorskip("flax")
    import flax.core  # noqa: F401  (flax.core.frozen_dict)
    assert set(DICT_RETURNING_EXAMPLES) == set(DICT_RETURNING_FUNCTIONS)
    _resolve(qualname, {"haiku": hk, "flax": flax}[qualname.split(".")[0]], qualname.split(".")[0] + ".")
    value = DICT_RETURNING_EXAMPLES[qualname](hk, flax, {"a": {"w": jnp.ones(2)}})
    assert isinstance(value, dict)
    with pytest.raises(ValueError, match="hashable"):
        jax.jit(lambda x, params: x, static_argnums=1)(1.0, value)


@pytest.mark.parametrize("key", sorted(ARRAY_LEAF_PARAMS))
def test_array_leaf_param_raises_for_a_function_leaf(key):
    """An eqx.nn.MLP (its activations are function leaves) at each parameter raises TypeError;
    an array there works.  Each parameter is where the signature says."""
    mlp = _equinox_object("equinox.nn.MLP")
    function = _resolve(key, pytest.importorskip(key.split(".")[0]), key.split(".")[0] + ".")
    parameters = [p for p in inspect.signature(function).parameters if p != "self"]  # a method's
    for position, keyword in ARRAY_LEAF_PARAMS[key]:
        assert parameters[position] == keyword, (key, parameters)
        _array_leaf_call(key, position, jnp.ones(2))
        with pytest.raises(TypeError, match="valid JAX type|abstract array|Cannot determine dtype"):
            _array_leaf_call(key, position, mlp)


@pytest.mark.parametrize("qualname", sorted(PARTITIONS))
def test_partition_rest_of_an_array_filter_holds_the_non_array_leaves(qualname):
    """The rest of ``eqx.partition(mlp, filter)`` for each array filter is no valid JAX value
    (jax.jit raises at a traced position); the accepted half is."""
    eqx = pytest.importorskip("equinox")
    mlp = _equinox_object("equinox.nn.MLP")
    for name in ARRAY_FILTERS:
        halves = _resolve(qualname, eqx, "equinox.")(mlp, _resolve(name, eqx, "equinox."))
        jax.jit(lambda p: 0)(halves[1 - PARTITIONS[qualname]])
        with pytest.raises(TypeError, match="abstract array"):
            jax.jit(lambda p: 0)(halves[PARTITIONS[qualname]])


@pytest.mark.parametrize("qualname", sorted(FLAG_LEAF_OBJECTS))
def test_flag_leaf_layer_raises_when_run_under_jax_jit(qualname):
    """Passing it traced is fine; running it under jax.jit (or as a scan carry) raises
    TracerBoolConversionError on its flag; eqx.filter_jit keeps the flag static."""
    eqx = pytest.importorskip("equinox")
    layer, x, key = _equinox_object(qualname), jnp.ones(3), jax.random.PRNGKey(0)
    jax.jit(lambda m, v: v)(layer, x)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.jit(lambda m, v, k: m(v, key=k))(layer, x, key)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.lax.scan(lambda m, v: (m, m(v, key=key)), layer, jnp.ones((2, 3)))
    eqx.filter_jit(lambda m, v, k: m(v, key=k))(layer, x, key)


@pytest.mark.parametrize("qualname", sorted(FLAG_CALL_OVERRIDES))
def test_flag_call_override_runs_under_jax_jit(qualname):
    """The same layer run under jax.jit with its flag passed by that keyword at the call never
    tests the traced field: it traces and runs (both values)."""
    pytest.importorskip("equinox")
    assert qualname in FLAG_LEAF_OBJECTS
    layer, x, key = _equinox_object(qualname), jnp.ones(3), jax.random.PRNGKey(0)
    keyword = FLAG_CALL_OVERRIDES[qualname]
    for value in (True, False):
        out = jax.jit(lambda m, v, k: m(v, key=k, **{keyword: value}))(layer, x, key)
        assert out.shape == x.shape


@pytest.mark.parametrize("qualname", sorted(NON_ARRAY_LEAF_OBJECTS))
def test_non_array_leaf_object_raises_at_a_traced_position_of_jax_jit(qualname):
    eqx = pytest.importorskip("equinox")
    obj = _equinox_object(qualname)
    with pytest.raises(TypeError, match="as an abstract array"):
        jax.jit(lambda m: 0)(obj)
    assert eqx.filter_jit(lambda m: 0)(obj) == 0  # the fix the message names


@pytest.mark.parametrize("qualname, keyword", sorted(
    (qualname, keyword) for qualname, keywords in REJECTED_JIT_KEYWORDS.items() for keyword in keywords))
def test_rejected_jit_keyword_raises_when_applied(qualname, keyword):
    library = pytest.importorskip(qualname.partition(".")[0])
    wrapper = _resolve(qualname, library, qualname.partition(".")[0] + ".")
    value = ["x"] if keyword.endswith("argnames") else (0,)
    with pytest.raises(ValueError, match=keyword):
        functools.partial(wrapper, **{keyword: value})(lambda x: x)
    assert wrapper(lambda x: x)(1.0) == 1.0  # without it, the non-array argument is static


@pytest.mark.parametrize("qualname", sorted(ARRAY_HASHING_OBJECTS))
def test_array_hashing_object_is_unhashable(qualname):
    obj = _equinox_object(qualname)
    with pytest.raises(TypeError, match="unhashable"):
        hash(obj)


def test_field_hashing_base_hashes_its_array_fields():
    for qualname in FIELD_HASHING_BASES:
        eqx = pytest.importorskip("equinox")
        base = _resolve(qualname, eqx, "equinox.")

        class Holder(base):
            weight: jax.Array

        with pytest.raises(TypeError, match="unhashable"):
            hash(Holder(jnp.ones(2)))
        with pytest.raises(TypeError, match="unhashable"):
            hash(Holder([1.0]))  # a list field too


def _hashed_function_call(qualname: str, position: int, function, x) -> list:
    """The arguments of an example call of ``qualname``, with ``function`` at ``position``
    (None: the example's own, hashable functions)."""
    def identity(*args):
        return args[-1]
    args = {
        "jax.lax.switch": [jnp.int32(0), [identity, identity], x],
        "jax.lax.cond": [jnp.bool_(True), identity, identity, x],
        "jax.lax.scan": [lambda c, v: (c, v), x, jnp.ones((2, 2))],
        "jax.lax.while_loop": [lambda c: False, identity, x],
    }[qualname]
    if function is not None:
        args[position] = [function, function] if isinstance(args[position], list) else function
    return args


@pytest.mark.parametrize("qualname", sorted(HASHED_FUNCTION_PARAMS))
def test_hashed_function_param_raises_for_an_unhashable_function(qualname):
    """An unhashable callable (an equinox Linear) at each parameter raises TypeError, eagerly
    and under jit; a hashable one works."""
    function = _resolve(qualname, jax, "jax.")
    parameters = list(inspect.signature(function).parameters)
    layer = _equinox_object("equinox.nn.Linear")
    x = jnp.ones(2)
    for position, keyword, sequence in HASHED_FUNCTION_PARAMS[qualname]:
        assert parameters[position] == keyword, (qualname, position, keyword)
        assert isinstance(_hashed_function_call(qualname, position, layer, x)[position], list) == sequence
        function(*_hashed_function_call(qualname, position, None, x))  # the example's own functions work
        with pytest.raises(TypeError, match="unhashable"):
            function(*_hashed_function_call(qualname, position, layer, x))
        with pytest.raises(TypeError, match="unhashable"):
            jax.jit(lambda v: function(*_hashed_function_call(qualname, position, layer, v)))(x)


@pytest.mark.parametrize("qualname", sorted(COMPILE_TIME_EVAL_CONTEXTS))
def test_compile_time_eval_context_gives_concrete_values_under_jit(qualname):
    context = _resolve(qualname, jax, "jax.")

    def branch(x, eager):
        if eager:
            with context():
                positive = jnp.sin(jnp.sin(3.0)) > 0
        else:
            positive = jnp.sin(jnp.sin(3.0)) > 0
        return jnp.sin(x) if positive else jnp.cos(x)

    jax.jit(lambda x: branch(x, True))(0.0)
    with pytest.raises(jax.errors.TracerBoolConversionError):
        jax.jit(lambda x: branch(x, False))(0.0)


@pytest.mark.parametrize("qualname", sorted(TRACER_TYPES))
def test_tracer_type_tells_a_tracer_from_a_value(qualname):
    tracer = _resolve(qualname, jax, "jax.")
    seen = []
    jax.jit(lambda x: seen.append(isinstance(x, tracer)) or x)(1.0)
    assert seen == [True] and not isinstance(jnp.ones(()), tracer)


@pytest.mark.parametrize("qualname", sorted(PASS_THROUGH_WRAPPERS))
def test_pass_through_wrapper_calls_the_jit_with_the_same_arguments(qualname):
    """Over a jitted function, the wrapper's call reaches the jit as written: the static
    argument stays a Python value, the other is traced."""
    top = qualname.split(".")[0]
    wrap = _resolve(qualname, pytest.importorskip(top), f"{top}.")
    if qualname == "jaxtyping.jaxtyped":  # a decorator factory: ``@jaxtyped(typechecker=...)``
        wrap = wrap(typechecker=None)

    def scale(x, times):
        return x * 2.0 if times > 1 else x

    wrapped = wrap(jax.jit(scale, static_argnums=1))
    assert float(wrapped(jnp.ones(()), 2)) == 2.0
    with pytest.raises(jax.errors.TracerBoolConversionError):
        wrap(jax.jit(lambda x: x if x > 0 else -x))(1.0)


@pytest.mark.parametrize("qualname", sorted(HOST_CALLBACKS))
def test_host_callback_runs_its_function_on_concrete_arrays(qualname):
    callback = _resolve(qualname, jax, "jax.")
    seen = []

    def host(x):
        seen.append(type(np.asarray(x)))  # a tracer would raise TracerArrayConversionError
        return np.asarray(x, dtype=np.float32) * 2

    def traced(v):
        if qualname == "jax.debug.callback":
            callback(host, v)
            return v
        return callback(host, jax.ShapeDtypeStruct((3,), jnp.float32), v)

    jax.block_until_ready(jax.jit(traced)(jnp.ones(3)))
    jax.effects_barrier()
    assert seen and seen[0] is np.ndarray


@pytest.mark.parametrize("qualname", sorted(SIGNATURE_PRESERVING_TRANSFORMS))
def test_signature_preserving_transform_keeps_the_parameters(qualname):
    transform = _resolve(qualname, jax, "jax.")

    def loss(params, static, x):
        return jnp.sum(params * x)

    assert list(inspect.signature(transform(loss)).parameters) == ["params", "static", "x"]


@pytest.mark.parametrize("qualname", sorted(SIGNATURE_KEEPING_JITS))
def test_jit_keeps_the_signature_a_second_jit_checks_its_spec_against(qualname):
    jit = _resolve(qualname, jax, "jax.")

    def train_step(state, batch):
        return state

    jitted = functools.partial(jit, donate_argnums=0)(train_step)
    assert list(inspect.signature(jitted).parameters) == ["state", "batch"]
    with pytest.raises(ValueError, match="static_argnums"):
        jit(jitted, static_argnums=(2, 3))


@pytest.mark.parametrize("method", sorted(SIZE_KEEPING_METHODS))
def test_size_keeping_method_keeps_a_short_batch_short(method):
    """A short batch of 3 rows (of 4 features) rebound with the method still holds 12 values,
    never the 16 of a full batch of 4: NumPy and jax arrays alike."""
    arguments = {"reshape": (-1, 2, 2), "astype": (np.float32,), "view": ()}.get(method, ())
    for short in (np.ones((3, 4), np.float32), jnp.ones((3, 4), jnp.float32)):
        if method == "view" and not isinstance(short, np.ndarray):
            continue  # jax arrays have no view(); NumPy's keeps the buffer
        assert getattr(short, method)(*arguments).size == 12


@pytest.mark.parametrize("method", sorted(DISTRIBUTION_METHODS))
def test_distribution_method_returns_a_tracer_under_jit(method):
    """A distribution built from traced values gives tracers through each method (numpyro's
    Normal: ``mean`` and ``variance`` are properties there, methods in distrax), so
    ``np.clip(policy.sample(seed=key), ...)`` raises like NumPy on any tracer."""
    distributions = pytest.importorskip("numpyro.distributions")
    arguments = {"sample": (jax.random.key(0),), "log_prob": (0.5,), "cdf": (0.5,), "icdf": (0.3,)}
    seen = []

    @jax.jit
    def run(loc):
        member = getattr(distributions.Normal(loc, 1.0), method)
        value = member(*arguments.get(method, ())) if callable(member) else member
        seen.append(isinstance(value, jax.core.Tracer))
        return value

    run(jnp.float32(0.0))
    assert seen == [True]


@pytest.mark.parametrize("qualname", sorted(ARGUMENT_FORWARDING_TRANSFORMS))
def test_argument_forwarding_transform_compiles_the_jitted_function_again_for_a_new_shape(qualname):
    """``T(loss)(params, batch)`` of a jitted ``loss`` calls that jit with the batch as given:
    the same shape again compiles nothing of ``loss``, a new shape compiles it again."""
    from jax import monitoring

    transform = _resolve(qualname, jax, "jax.")

    @jax.jit
    def forwarded_loss(params, batch):
        return jnp.sum((batch @ params) ** 2)

    applied = transform(forwarded_loss)
    params = jnp.ones(3)
    names = []

    def listen(event: str, duration: float, **kwargs) -> None:
        if event == "/jax/core/compile/backend_compile_duration":
            names.append(kwargs.get("fun_name"))

    monitoring.register_event_duration_secs_listener(listen)
    try:
        counts = []
        for rows in (4, 4, 5):
            before = len(names)
            jax.block_until_ready(applied(params, jnp.ones((rows, 3))))
            counts.append(sum(1 for name in names[before:] if name == "jit(forwarded_loss)"))
    finally:
        monitoring.unregister_event_duration_listener(listen)
    assert counts[0] >= 1 and counts[1] == 0 and counts[2] >= 1


def _pytree_class(qualname: str, decorator: bool):
    """A class made a pytree by ``qualname`` with an array field ``x`` and a str field ``name``."""
    import dataclasses
    import typing

    module, _, attr = qualname.rpartition(".")
    make = getattr(importlib.import_module(module) if module != "typing" else typing, attr) \
        if not qualname.startswith("jax.") else _resolve(qualname, jax, "jax.")
    namespace = {"__annotations__": {"x": jax.Array, "name": str}}
    if decorator:
        cls = type("Holder", (), namespace)
        if qualname == "jax.tree_util.register_dataclass":
            return make(dataclasses.dataclass(cls))
        return make(cls)
    if qualname == "typing.NamedTuple":
        return typing.NamedTuple("Holder", [("x", jax.Array), ("name", str)])
    return type("Holder", (make,), namespace)


@pytest.mark.parametrize("qualname, decorator", [
    *((q, True) for q in sorted(PYTREE_CLASS_DECORATORS)),
    *((q, False) for q in sorted(PYTREE_CLASS_BASES | NAMED_TUPLE_BASES))])
def test_pytree_class_traces_its_fields_and_a_str_field_raises(qualname, decorator):
    top = qualname.split(".")[0]
    if top != "jax" and top != "typing":
        pytest.importorskip(top)
    cls = _pytree_class(qualname, decorator)
    seen = []
    jax.jit(lambda h: seen.append(isinstance(h.x, jax.core.Tracer)))(
        jax.tree_util.tree_map(lambda v: v, cls(x=jnp.ones(2), name=None)))
    assert seen == [True]
    with pytest.raises(TypeError, match="as an abstract array"):
        jax.jit(lambda h: h.x)(cls(x=jnp.ones(2), name="a"))


@pytest.mark.parametrize("qualname", sorted(DTYPE_OBJECTS))
def test_dtype_object_raises_at_a_traced_position_of_jax_jit(qualname):
    root, prefix = (jnp, "jax.numpy.") if qualname.startswith("jax.numpy.") else (np, "numpy.")
    dtype = _resolve(qualname, root, prefix)
    if qualname.endswith(".dtype"):
        dtype = dtype("float32")  # called: a dtype instance
    with pytest.raises(TypeError, match="as an abstract array"):
        jax.jit(lambda x, d: x)(1.0, dtype)
    assert jax.jit(lambda x, d: x, static_argnums=1)(1.0, dtype) == 1.0
def _leaf_field_class(qualname: str):
    """A class made by ``qualname`` with an int field ``n`` (no static marker) and ``k`` marked
    static where the library can (chex and NamedTuple cannot)."""
    import dataclasses
    if qualname == "typing.NamedTuple":
        class Counted(typing.NamedTuple):
            n: int
        return Counted, None
    if qualname == "chex.dataclass":
        chex = pytest.importorskip("chex")

        @chex.dataclass
        class Counted:
            n: int
        return Counted, None
    if qualname == "jax.tree_util.register_dataclass":
        @jax.tree_util.register_dataclass
        @dataclasses.dataclass
        class Counted:
            n: int
            k: int = dataclasses.field(default=3, metadata={"static": True})
        return Counted, "k"
    struct = pytest.importorskip("flax.struct")
    if qualname == "flax.struct.dataclass":
        @struct.dataclass
        class Counted:
            n: int
            k: int = struct.field(pytree_node=False, default=3)
    else:
        class Counted(struct.PyTreeNode):
            n: int
            k: int = struct.field(pytree_node=False, default=3)
    return Counted, "k"


@pytest.mark.parametrize("qualname", sorted(LEAF_FIELD_DATACLASSES))
def test_leaf_field_dataclass_traces_an_int_field(qualname):
    """Every unmarked field is a leaf: under jax.jit an int field is a tracer, and a concrete
    parameter given it raises (chex#104); a field marked static stays a Python int."""
    cls, static = _leaf_field_class(qualname)
    seen = {}

    def body(c):
        seen.update({name: getattr(c, name) for name in ("n", static) if name})
        return c.n + 1

    jax.jit(body)(cls(n=4))
    assert isinstance(seen["n"], jax.core.Tracer)
    if static:
        assert seen[static] == 3
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda c: jax.lax.scan(lambda carry, _: (carry + 1, None), 0, None, length=c.n))(cls(n=4))


@pytest.mark.parametrize("qualname", sorted(SCHEDULE_PARAMS))
def test_schedule_is_called_with_a_traced_count_under_jit(qualname):
    """The optimizer's jitted ``update`` calls the schedule with a tracer (so numpy on it
    raises), passed at the position and by the keyword the table names."""
    optax = pytest.importorskip("optax")
    position, keyword = SCHEDULE_PARAMS[qualname]
    function = getattr(optax, qualname.removeprefix("optax."))
    assert list(inspect.signature(function).parameters)[position] == keyword
    counts = []

    def schedule(count):
        counts.append(count)
        return 0.1

    optimizer = function(**{keyword: schedule})
    params = jnp.ones(3)
    jax.jit(optimizer.update)(jnp.ones(3), optimizer.init(params), params)
    assert counts and all(isinstance(count, jax.core.Tracer) for count in counts)
    with pytest.raises(jax.errors.TracerArrayConversionError):
        optimizer = function(**{keyword: lambda count: 0.1 * np.cos(count)})
        jax.jit(optimizer.update)(jnp.ones(3), optimizer.init(params), params)


# ---------------------------------------------------------------------------- values jit cannot take, return or hash
_ARGUMENT_ERROR = "as an abstract array"
_RETURN_ERROR = "which is not a valid JAX type"


def _optax_made(qualname: str):
    """What an OPTAX_TRANSFORMATIONS or OPTAX_SCHEDULES factory makes, called as user code calls it."""
    optax = pytest.importorskip("optax")
    arguments = {
        "optax.chain": lambda: (optax.sgd(0.1),),
        "optax.multi_transform": lambda: ({"a": optax.sgd(0.1)}, "a"),
        "optax.masked": lambda: (optax.sgd(0.1), True),
        "optax.zero_nans": lambda: (),
        "optax.exponential_decay": lambda: (1.0, 10, 0.5),
        "optax.cosine_decay_schedule": lambda: (1.0, 10),
        "optax.linear_schedule": lambda: (1.0, 0.0, 10),
        "optax.warmup_cosine_decay_schedule": lambda: (0.0, 1.0, 5, 10),
        "optax.join_schedules": lambda: ([optax.constant_schedule(1.0)] * 2, [5]),
        "optax.polynomial_schedule": lambda: (1.0, 0.0, 1, 10),
        "optax.cosine_onecycle_schedule": lambda: (10, 1.0),
    }.get(qualname, lambda: (1.0,))
    return _resolve(qualname, optax, "optax.")(*arguments())


@pytest.mark.parametrize("qualname", sorted(OPTAX_TRANSFORMATIONS | OPTAX_SCHEDULES))
def test_optax_factory_result_hashes_by_identity(qualname):
    """Two calls with equal settings make two different static cache keys (JIT402)."""
    optax = pytest.importorskip("optax")
    first, second = _optax_made(qualname), _optax_made(qualname)
    if qualname in OPTAX_TRANSFORMATIONS:
        assert isinstance(first, optax.GradientTransformation)
    else:
        assert callable(first) and not isinstance(first, tuple)
    assert first != second


def _non_jax_result(qualname: str):
    """The value a NON_JAX_RESULTS call makes, built as user code builds it."""
    device = jax.devices()[0]
    mesh = jax.make_mesh((1,), ("x",))
    examples = {
        "jax.sharding.NamedSharding": lambda f: f(mesh, jax.sharding.PartitionSpec()),
        "jax.sharding.SingleDeviceSharding": lambda f: f(device),
        "jax.sharding.Mesh": lambda f: f(np.array(jax.devices()), ("x",)),
        "jax.sharding.PartitionSpec": lambda f: f("x"),
        "jax.make_mesh": lambda f: f((1,), ("x",)),
        "jax.devices": lambda f: f(),
        "jax.local_devices": lambda f: f(),
    }
    if qualname.startswith("optax."):
        return _optax_made(qualname)
    if qualname.startswith("haiku."):
        hk = pytest.importorskip("haiku")
        made = _resolve(qualname, hk, "haiku.")
        forward = lambda x: hk.Linear(2)(x)  # noqa: E731
        return made(hk.transform(forward)) if qualname == "haiku.without_apply_rng" else made(forward)
    if qualname.startswith("jax.example_libraries.optimizers."):
        optimizers = importlib.import_module("jax.example_libraries.optimizers")
        function = _resolve(qualname, optimizers, "jax.example_libraries.optimizers.")
        return function(*(1e-3,) * _required_positional(function))  # step size (and mass)
    return examples[qualname](_resolve(qualname, jax, "jax."))


@pytest.mark.parametrize("qualname", sorted(NON_JAX_RESULTS))
def test_non_jax_result_raises_as_a_traced_argument_and_as_a_jitted_output(qualname):
    value = _non_jax_result(qualname)
    with pytest.raises(TypeError, match=_ARGUMENT_ERROR):
        jax.jit(lambda v: 0)(value)
    with pytest.raises(TypeError, match=_RETURN_ERROR):
        jax.jit(lambda: value)()
    if NON_JAX_RESULTS[qualname].element:  # its items are such values too
        with pytest.raises(TypeError, match=_ARGUMENT_ERROR):
            jax.jit(lambda v: 0)(value[0])
    assert jax.jit(lambda x, v: x, static_argnums=1)(1.0, value if not isinstance(value, list)
                                                     else tuple(value)) == 1.0  # static: fine


def _non_numeric_dtypes() -> list:
    import builtins as python
    return [*(getattr(python, name) for name in sorted(NON_NUMERIC_DTYPE_BUILTINS)),
            *(_resolve(name, np, "numpy.") for name in sorted(NON_NUMERIC_DTYPE_NAMES)),
            "U5", "<U3", "S5", "O", "str", "object", "bytes"]


@pytest.mark.parametrize("dtype", _non_numeric_dtypes(), ids=str)
def test_non_numeric_dtype_array_raises_as_a_traced_argument(dtype):
    import re
    if isinstance(dtype, str):
        assert re.fullmatch(NON_NUMERIC_DTYPE_CODES, dtype)
    for constructor in sorted(NUMPY_DTYPED_CONSTRUCTORS - {"numpy.fromiter", "numpy.loadtxt",
                                                           "numpy.genfromtxt"}):
        function = _resolve(constructor, np, "numpy.")
        data = [1, 2] if constructor in NUMPY_INFERRING_CONSTRUCTORS else \
            np.zeros(2) if constructor.endswith("_like") else 2
        args = (data, 0) if constructor.endswith("full") or constructor.endswith("full_like") else (data,)
        array = function(*args, dtype=dtype)
        with pytest.raises(TypeError, match=_ARGUMENT_ERROR):
            jax.jit(lambda v: 0)(array)
    with pytest.raises(TypeError, match=_ARGUMENT_ERROR):
        jax.jit(lambda v: 0)(np.array([1, 2]).astype(dtype))
    for numeric in ("float32", "int32", "<f4", "bool"):
        assert not re.fullmatch(NON_NUMERIC_DTYPE_CODES, numeric)


def test_numpy_inferring_constructor_makes_a_str_array_from_one_str_element():
    for constructor in NUMPY_INFERRING_CONSTRUCTORS:
        function = _resolve(constructor, np, "numpy.")
        for data in (["a", "b"], [b"a"], ["a", 1.0]):
            with pytest.raises(TypeError, match=_ARGUMENT_ERROR):
                jax.jit(lambda v: 0)(function(data))
        jax.jit(lambda v: v)(function(["1", "2"], dtype=float))  # the dtype decides


def test_non_jax_enum_member_raises_as_argument_and_output_and_int_enum_does_not():
    import enum
    for qualname in NON_JAX_ENUM_BASES:
        base = getattr(enum, qualname.removeprefix("enum."))
        member = base("Mode", {"A": "a" if qualname == "enum.StrEnum" else 1}).A
        with pytest.raises(TypeError, match=_ARGUMENT_ERROR):
            jax.jit(lambda v: 0)(member)
        with pytest.raises(TypeError, match=_RETURN_ERROR):
            jax.jit(lambda: member)()
    assert jax.jit(lambda v: v)(enum.IntEnum("Mode", {"A": 1}).A) == 1


def _hashed_under_jit(operation):
    with pytest.raises(TypeError, match="unhashable type: 'DynamicJaxprTracer'"):
        jax.jit(operation)(jnp.ones(2))


@pytest.mark.parametrize("builtin", sorted(HASHING_BUILTINS))
def test_hashing_builtin_raises_on_a_tracer(builtin):
    function = getattr(builtins, builtin)
    argument = (lambda x: x[0]) if builtin == "hash" else (lambda x: x)
    function(argument(np.ones(2)))  # a NumPy value hashes
    _hashed_under_jit(lambda x: function(argument(x)))


@pytest.mark.parametrize("qualname", sorted(HASHING_FUNCTIONS))
def test_hashing_function_raises_on_a_tracer(qualname):
    module, _, name = qualname.rpartition(".")
    function = getattr(builtins.__dict__.get(module) or importlib.import_module(module), name)
    function(np.ones(2))
    _hashed_under_jit(lambda x: function(x))


@pytest.mark.parametrize("qualname", sorted(HASHING_DECORATORS))
def test_hashing_decorator_raises_on_a_tracer_argument(qualname):
    decorator = _resolve(qualname, importlib.import_module("functools"), "functools.")

    @decorator
    def double(v):
        return v * 2

    assert double(2) == 4
    _hashed_under_jit(lambda x: double(x))


def test_hashing_syntax_raises_on_a_tracer():
    examples = {"set element": lambda x: {x[0]}, "dict key": lambda x: {x[0]: 1},
                "set or dict membership": lambda x: x[0] in {1.0: 2}, "dict lookup": lambda x: {1.0: 2}[x[0]]}
    assert set(examples) == set(HASHING_SYNTAX)
    for name, example in examples.items():
        example(np.ones(2))
        _hashed_under_jit(example)
    _hashed_under_jit(lambda x: x[0] in {1.0, 2.0})
    _hashed_under_jit(lambda x: {1.0: 2}.get(x[0], 0))


@pytest.mark.parametrize("qualname", sorted(LIBRARY_FUNCTIONS))
def test_library_function_is_no_valid_argument_nor_output(qualname):
    root = pytest.importorskip("flax.linen") if qualname.startswith("flax.linen.") else jax
    function = _resolve(qualname, root, "flax.linen." if qualname.startswith("flax.linen.") else "jax.")
    assert callable(function)
    with pytest.raises(TypeError, match=_ARGUMENT_ERROR):
        jax.jit(lambda f: 0)(function)
    with pytest.raises(TypeError, match=_RETURN_ERROR):
        jax.jit(lambda: function)()

@pytest.mark.parametrize("module", [np, jnp], ids=["numpy", "jax.numpy"])
@pytest.mark.parametrize("name", sorted(SHAPED_CONSTRUCTORS))
def test_shaped_constructor_makes_as_many_rows_as_its_first_argument_says(module, name):
    make = getattr(module, name)
    if name == "arange":
        assert len(make(10)) == 10
        return
    extra = (0.5,) if name == "full" else ()
    assert make((10, 2), *extra).shape[0] == 10
    assert len(make(10, *extra)) == 10


@pytest.mark.parametrize("qualname", sorted(STATIC_SPEC_TRANSFORMS))
def test_static_spec_transform_counts_positions_as_recorded(qualname):
    """The transform takes its function and static_argnums under the recorded names; the flag
    at the recorded position (self counted for a linen Module class) is static, the one before
    it is traced; a position past the parameters raises the recorded error (or is ignored)."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    fact = STATIC_SPEC_TRANSFORMS[qualname]
    root = pytest.importorskip(qualname.rpartition(".")[0])
    transform = getattr(root, qualname.rpartition(".")[2])
    params = inspect.signature(transform).parameters
    assert fact.keyword in params and fact.fun[1] in params
    assert list(params).index(fact.fun[1]) == fact.fun[0]
    x = jnp.ones((1, 3))  # one row: pmap maps it over the one CPU device
    if fact.self_counted:
        nn = pytest.importorskip("flax.linen")

        class Net(nn.Module):
            @nn.compact
            def __call__(self, x, train):
                return nn.Dense(2)(x) if train else x

        def run(nums):
            return transform(Net, **{fact.keyword: nums})().init(jax.random.PRNGKey(0), x, True)
    else:
        def layer(x, train):
            return jnp.tanh(x) if train else x

        def run(nums):
            return transform(layer, **{fact.keyword: nums})(x, True)
    flag = 2 if fact.self_counted else 1
    run((flag,))
    # the flag traced (nn.jit hashes its statics first: the array at the position before it)
    with pytest.raises((jax.errors.TracerBoolConversionError, ValueError)):
        run((flag - 1,))
    if fact.out_of_range is None:
        with pytest.raises(jax.errors.TracerBoolConversionError):
            run((flag + 1,))  # ignored: the flag stays traced
    else:
        with pytest.raises(getattr(__import__("builtins"), fact.out_of_range), match=fact.keyword):
            run((flag + 1,))

@pytest.mark.parametrize("qualname", sorted(q for q, f in STATIC_SPEC_TRANSFORMS.items() if not f.self_counted))
def test_static_spec_transform_checks_positions_against_each_call(qualname):
    """A static position on a defaulted parameter: a call that leaves it out (or passes it by
    keyword) raises the recorded ``unpassed`` error, or runs when none is recorded."""
    fact = STATIC_SPEC_TRANSFORMS[qualname]
    root = pytest.importorskip(qualname.rpartition(".")[0])
    transform = getattr(root, qualname.rpartition(".")[2])

    def modes(x, a=None, real=False):
        return x if real else x * 2.0

    wrapped = transform(modes, **{fact.keyword: 2})
    x = jnp.ones(1)  # one element: pmap maps it over the one CPU device
    assert float(wrapped(x, None, True)[0]) == 1.0
    for kwargs in ({}, {"real": True}):
        if fact.unpassed is None:
            wrapped(x, **kwargs)
        else:
            with pytest.raises(getattr(__import__("builtins"), fact.unpassed), match=fact.keyword):
                wrapped(x, **kwargs)


@pytest.mark.parametrize("qualname", sorted(NON_PYTREE_CLASS_DECORATORS))
def test_non_pytree_class_decorator_leaves_self_no_valid_jit_argument(qualname):
    module, name = qualname.rsplit(".", 1)
    decorate = getattr(importlib.import_module(module), name)

    class Scaler:
        def scaled(self, v):
            return v * 2.0

    Scaler = decorate(Scaler)
    scaler = Scaler()
    [leaf] = jax.tree_util.tree_leaves(scaler)
    assert leaf is scaler  # one opaque leaf: no pytree
    with pytest.raises(TypeError, match="not a valid JAX type|abstract array"):
        jax.jit(Scaler.scaled)(Scaler(), 1.0)


@pytest.mark.parametrize("role, qualname", [*(("base", q) for q in sorted(PLAIN_CLASS_BASES)),
                                             *(("metaclass", q) for q in sorted(PLAIN_METACLASSES))])
def test_plain_class_leaves_self_no_valid_jit_argument(role, qualname):
    """A class made with this base (or metaclass) is one opaque leaf, and its ``self`` at a
    traced position of jax.jit raises TypeError."""
    module, name = qualname.rsplit(".", 1)
    library = getattr(pytest.importorskip(module), name)

    class Methods:
        def scaled(self, v):
            return v * 2.0

        def __iter__(self):  # an IterableDataset's one abstract method
            return iter(())

    Scaler = library("Scaler", (Methods,), {}) if role == "metaclass" else type("Scaler", (Methods, library), {})
    [leaf] = jax.tree_util.tree_leaves(Scaler())
    assert isinstance(leaf, Scaler)  # one opaque leaf: no pytree
    with pytest.raises(TypeError, match="not a valid JAX type|abstract array"):
        jax.jit(Scaler.scaled)(Scaler(), 1.0)


@pytest.mark.parametrize("qualname", sorted(HOST_RANDOM_DRAWS))
def test_host_random_draw_is_baked_in_under_jit(qualname):
    module, name = qualname.rsplit(".", 1)
    draw = getattr(importlib.import_module(module), name)
    args = HOST_RANDOM_DRAWS[qualname]
    jitted = jax.jit(lambda: jnp.asarray(draw(*args)))
    assert np.array_equal(jitted(), jitted())  # drawn once, at trace time
    assert not np.array_equal(draw(*args), draw(*args))  # eagerly each draw advances the state


@pytest.mark.parametrize("qualname", sorted(OPTIMIZER_STATE_INITS))
def test_optimizer_state_cannot_be_a_static_argument(qualname):
    """The init reached as recorded (attribute and unpacking index) returns a state that a
    static position cannot hash: ValueError at the call."""
    module, _, name = qualname.rpartition(".")
    factory = getattr(importlib.import_module(module), name)
    if qualname == "optax.multi_transform":
        args = ({"a": pytest.importorskip("optax").sgd(1e-2)}, {"w": "a"})
    elif qualname == "optax.scale_by_schedule":
        args = (lambda count: 1.0,)
    elif qualname in ("optax.scale_by_adam", "optax.zero_nans"):
        args = ()
    elif name in ("momentum", "nesterov"):  # jax.example_libraries: step size and mass
        args = (1e-2, 0.9)
    else:
        args = (1e-2,)
    made = factory(*args)
    attribute, index = OPTIMIZER_STATE_INITS[qualname]
    init = getattr(made, attribute)
    assert tuple(made)[index] is init
    state = init({"w": jnp.ones((2, 2))})
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        jax.jit(lambda s: 0, static_argnums=0)(state)


ITERATOR_ARGUMENTS = {"iter": ([1, 2, 3],), "itertools.count": (), "itertools.cycle": ([1, 2],),
                      "itertools.islice": (range(5), 3), "itertools.chain": ([1], [2]),
                      "itertools.product": ([1, 2],), "itertools.permutations": ([1, 2],),
                      "itertools.combinations": ([1, 2, 3], 2)}


@pytest.mark.parametrize("qualname", sorted(HOST_ITERATOR_MAKERS))
def test_host_iterator_item_is_baked_in_under_jit(qualname):
    module, _, name = qualname.rpartition(".")
    make = getattr(importlib.import_module(module or "builtins"), name)
    items = make(*ITERATOR_ARGUMENTS[qualname])
    jitted = jax.jit(lambda: jnp.asarray(next(items)))
    assert bool(jnp.all(jitted() == jitted()))  # next() ran once, at trace time
    fresh = make(*ITERATOR_ARGUMENTS[qualname])
    assert next(fresh) != next(fresh)  # eagerly each next() advances


@pytest.mark.parametrize("qualname", sorted(LAX_LOOP_BODIES))
def test_lax_loop_traces_its_body_once_for_all_iterations(qualname):
    position, name = LAX_LOOP_BODIES[qualname]
    loop = _resolve(qualname, jax, "jax.")
    assert list(inspect.signature(loop).parameters).index(name) == position
    rng = np.random.default_rng(0)

    def draw():
        return jnp.float32(rng.normal())

    if qualname.endswith("fori_loop"):
        out = loop(0, 4, lambda i, xs: xs.at[i].set(draw()), jnp.zeros(4))
    elif qualname.endswith("while_loop"):
        out = loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1].at[c[0]].set(draw())), (0, jnp.zeros(4)))[1]
    elif qualname.endswith("scan"):
        out = loop(lambda c, _: (c, draw()), 0.0, None, length=4)[1]
    else:
        out = loop(lambda _: draw(), jnp.zeros(4))
    assert len(set(np.asarray(out).tolist())) == 1  # one draw, at trace time, in every iteration


@pytest.mark.parametrize("qualname", sorted(HOST_CLOCK_READS))
def test_host_clock_read_is_baked_in_under_jit(qualname):
    module, name = qualname.rsplit(".", 1)
    read = getattr(importlib.import_module(module), name)

    def seconds():  # within the last 1000 s, as float32 keeps 20 ms apart there
        value = read()
        return (value / 1e9 if isinstance(value, int) else value) % 1000.0

    jitted = jax.jit(lambda: jnp.asarray(seconds()))
    first = jitted()
    time.sleep(0.02)
    assert jitted() == first  # read once, at trace time
    before = seconds()
    time.sleep(0.02)
    assert seconds() != before  # eagerly each read moves on


def test_dispatched_random_draw_is_baked_in_and_leaks_its_key():
    autoray = pytest.importorskip("autoray")
    [(qualname, prefix)] = DISPATCHED_RANDOM_DRAWS.items()
    assert qualname == "autoray.do" and prefix == "random."
    sampler = jax.jit(lambda: autoray.do("random.normal", like="jax"))
    assert float(sampler()) == float(sampler())
    # the key split at trace time stays in autoray's global state: the next eager draw fails
    with pytest.raises(jax.errors.UnexpectedTracerError):
        autoray.do("random.normal", like="jax")


def test_consuming_method_marks_the_old_state_and_jit_loses_the_mark():
    eqx = pytest.importorskip("equinox")
    assert CONSUMING_METHODS == {"equinox.nn.State": "set"} and STATE_MAKERS == {"equinox.nn.make_with_state": 0}

    class Counter(eqx.Module):
        index: eqx.nn.StateIndex

        def __init__(self):
            self.index = eqx.nn.StateIndex(jnp.array(0.0))

    def step(counter, state):
        value = state.get(counter.index)
        return value, getattr(state, CONSUMING_METHODS["equinox.nn.State"])(counter.index, value + 1)

    made = eqx.nn.make_with_state(Counter)()
    counter, state = made[STATE_MAKERS["equinox.nn.make_with_state"]], made[1]
    assert isinstance(counter, Counter) and isinstance(state, eqx.nn.State)
    step(counter, state)
    with pytest.raises(ValueError, match="old state"):
        step(counter, state)  # eagerly, the old state is marked consumed
    counter, state = eqx.nn.make_with_state(Counter)()
    jitted = jax.jit(step)
    assert float(jitted(counter, state)[0]) == float(jitted(counter, state)[0]) == 0.0  # silently reused


@pytest.mark.parametrize("flag", sorted(CACHE_KEY_MISSING_FLAGS))
def test_cache_key_missing_flag_keeps_the_old_program_until_caches_are_cleared(flag):
    assert CONFIG_UPDATES == {"jax.config.update"} and CACHE_CLEARS == {"jax.clear_caches"}
    before = getattr(jax.config, flag)
    key = jax.random.key(0)
    draws = {"jax.random.gumbel": lambda k: jax.random.gumbel(k, (16,)),
             "jax.random.categorical": lambda k: jax.random.categorical(k, jnp.zeros(50), shape=(64,))}
    try:
        for qualname in sorted(CACHE_KEY_MISSING_FLAGS[flag]):
            jax.config.update(flag, False)
            jax.clear_caches()
            jitted = jax.jit(draws[qualname])
            low = np.asarray(jitted(key))
            jax.config.update(flag, True)
            assert np.array_equal(jitted(key), low)  # the cached program: the old mode
            jax.clear_caches()
            assert not np.array_equal(jitted(key), low)  # compiled again under the new value
    finally:
        jax.config.update(flag, before)
        jax.clear_caches()


@pytest.mark.parametrize("qualname", sorted(SHAPE_KEEPING_CONVERSIONS))
def test_shape_keeping_conversion_returns_its_arguments_shape(qualname):
    module, _, name = qualname.rpartition(".")
    convert = getattr(importlib.import_module(module), name)
    for array in (np.arange(7.0).reshape(7, 1), jnp.ones((3, 2))):
        assert convert(array).shape == array.shape


@pytest.mark.parametrize("method", sorted(SHAPE_KEEPING_METHODS))
def test_shape_keeping_method_returns_its_receivers_shape(method):
    for array in (np.arange(7.0).reshape(7, 1), jnp.ones((3, 2))):
        result = getattr(array, method)(np.float32) if method == "astype" else getattr(array, method)()
        assert result.shape == array.shape


@pytest.mark.parametrize("qualname", sorted(NUMPY_VALUE_FUNCTIONS))
def test_numpy_value_function_turns_a_python_float_into_a_strongly_typed_value(qualname):
    function = _resolve(qualname, np, "numpy.")
    extra = {"numpy.power": (2.0,), "numpy.clip": (0.0, 1.0)}.get(qualname, ())
    value = function(0.5, *extra)
    assert isinstance(value, (np.generic, np.ndarray))  # np.float64 is a float subclass, yet not weak
    # jit sees a strongly typed float32, where the Python float was weakly typed
    assert not jnp.asarray(value).weak_type and jnp.asarray(0.5).weak_type


@pytest.mark.parametrize("method", sorted(TENSOR_CONVERSION_METHODS))
def test_tensor_conversion_method_keeps_a_torch_batchs_shape(method):
    torch = pytest.importorskip("torch")
    batch = torch.ones(7, 3)
    assert tuple(getattr(batch, method)().shape) == (7, 3)


_METHOD_ARGUMENTS = {"reshape": (3,), "clip": (0, 1), "take": (jnp.array([0, 2]),), "repeat": (2,)}


@pytest.mark.parametrize("method", sorted(DTYPE_KEEPING_METHODS))
def test_dtype_keeping_method_keeps_a_numeric_dtype(method):
    for dtype in (jnp.float32, jnp.int32):
        array = jnp.array([[1, 0, 1]], dtype=dtype)
        assert getattr(array, method)(*_METHOD_ARGUMENTS.get(method, ())).dtype == dtype


@pytest.mark.parametrize("method", sorted(DTYPE_KEEPING_METHODS))
def test_mask_keeping_method_keeps_a_mask_boolean_and_the_others_do_not(method):
    mask = jnp.array([[True, False, True]])
    try:
        dtype = getattr(mask, method)(*_METHOD_ARGUMENTS.get(method, ())).dtype
    except ValueError:  # round: no finfo for bool
        dtype = None
    assert (dtype == jnp.bool_) == (method in MASK_KEEPING_METHODS)


@pytest.mark.parametrize("qualname", sorted(BOOL_DTYPES))
def test_bool_dtype_spelling_makes_a_mask_that_raises_as_an_index_under_jit(qualname):
    module = qualname.rpartition(".")[0]
    dtype = _resolve(qualname, importlib.import_module(module), module + ".")
    assert jnp.zeros(3, dtype=dtype).dtype == jnp.bool_

    def odd_entries(x):
        return x[jnp.concatenate([jnp.zeros(2, dtype=dtype), jnp.ones(2, dtype=dtype)])]

    assert odd_entries(jnp.arange(4.0)).shape == (2,)  # eagerly a concrete mask
    with pytest.raises(jax.errors.NonConcreteBooleanIndexError):
        jax.jit(odd_entries)(jnp.arange(4.0))


@pytest.mark.parametrize("qualname", sorted(ARGUMENT_KEEPING_DECORATORS))
def test_argument_keeping_decorator_hands_the_jitted_arguments_on_as_tracers(qualname):
    module, _, _ = qualname.rpartition(".")
    decorator = _resolve(qualname, pytest.importorskip(module), module + ".")
    seen = []

    @decorator
    def f(x):
        seen.append(isinstance(x, jax.core.Tracer))
        return x * 2.0

    if qualname == "jax.custom_jvp":
        f.defjvp(lambda primals, tangents: (f(*primals), tangents[0] * 2.0))
    elif qualname == "jax.custom_vjp":
        f.defvjp(lambda x: (f(x), None), lambda _, g: (g * 2.0,))
    assert float(jax.jit(f)(1.5)) == 3.0
    assert seen and all(seen)


@pytest.mark.parametrize("qualname", sorted(SHAPE_JOINING_CALLS))
def test_shape_joining_call_changes_shape_with_a_part(qualname):
    """With ``n`` rows in each part the result's shape changes with ``n`` (along axis 1 for the
    axis-taking joins); along axis 0 a pad of ``N - n`` rows keeps it fixed, which is why
    only an axis >= 1 counts."""
    module = qualname.rpartition(".")[0]
    join = _resolve(qualname, importlib.import_module(module), module + ".")
    axis_param = SHAPE_JOINING_CALLS[qualname]
    if axis_param is not None:
        assert list(inspect.signature(join).parameters)[axis_param[0]] == axis_param[1]
    keywords = {} if axis_param is None else {axis_param[1]: 1}
    shapes = {join([np.ones((n, 2)), np.zeros((n, 2))], **keywords).shape for n in (2, 3)}
    assert len(shapes) == 2, shapes
    if axis_param is not None:
        padded = {join([np.ones((n, 2)), np.zeros((5 - n, 2))], **{axis_param[1]: 0}).shape for n in (2, 3)}
        assert len(padded) == 1, padded


@pytest.mark.parametrize("qualname", sorted(NONDIFF_SPEC_TRANSFORMS))
def test_nondiff_spec_transform_raises_on_a_tracer_and_takes_a_python_value(qualname):
    """A tracer at a nondiff position (given by number or by name) raises the recorded error
    under jit and under vmap, with nothing differentiated; a Python value there works, and
    custom_jvp (not listed) takes the tracer."""
    fact = NONDIFF_SPEC_TRANSFORMS[qualname]
    transform = _resolve(qualname, jax, "jax.")
    params = inspect.signature(transform).parameters
    assert {fact.keyword, fact.names_keyword, fact.fun[1]} <= set(params)
    assert list(params).index(fact.fun[1]) == fact.fun[0]

    def scaled(scale, x):
        return x * scale

    error = getattr(jax.errors, fact.error)
    for spec in ({fact.keyword: (0,)}, {fact.names_keyword: ("scale",)}):
        wrapped = transform(scaled, **spec)
        wrapped.defvjp(lambda scale, x: (x * scale, None), lambda scale, _, g: (g * scale,))
        assert float(jax.jit(wrapped, static_argnums=0)(2.0, 1.0)) == 2.0
        with pytest.raises(error):
            jax.jit(wrapped)(2.0, 1.0)
        with pytest.raises(error):
            jax.vmap(wrapped)(jnp.ones(2), jnp.ones(2))
    jvp_wrapped = jax.custom_jvp(scaled, nondiff_argnums=(0,))
    jvp_wrapped.defjvp(lambda scale, primals, tangents: (primals[0] * scale, tangents[0] * scale))
    assert float(jax.jit(jvp_wrapped)(2.0, 1.0)) == 2.0


@pytest.mark.parametrize("qualname", sorted(BATCH_KEEPING_CALLS))
def test_batch_keeping_call_keeps_a_short_batch_short(qualname):
    """Handed a full and a short batch (a dict of columns) at the recorded position, the call
    gives leaves of different shapes: the short batch stays short."""
    module, _, name = qualname.rpartition(".")
    call = getattr(pytest.importorskip(module), name)

    def shapes(rows):
        batch = {"x": np.ones((rows, 3)), "y": np.ones(rows)}
        args = [None] * BATCH_KEEPING_CALLS[qualname] + [batch]
        return [leaf.shape for leaf in jax.tree_util.tree_leaves(call(*args))]

    assert shapes(4) != shapes(2)


@pytest.mark.parametrize("qualname", sorted(AXES_KEEPING_CALLS))
def test_axes_keeping_call_passes_a_changing_length_on(qualname):
    """Arrays of 3 and 4 rows give results of different shapes, and each result holds as many
    values as its argument (no axis dropped or resized)."""
    module, _, name = qualname.rpartition(".")
    call = getattr(importlib.import_module(module), name)
    extra = {"expand_dims": (0,), "moveaxis": (0, 1), "swapaxes": (0, 1)}.get(name, ())
    shapes = []
    for rows in (3, 4):
        result = call(np.ones((rows, 2)), *extra)
        assert result.size == rows * 2
        shapes.append(result.shape)
    assert shapes[0] != shapes[1]


@pytest.mark.parametrize("qualname", sorted(ROW_INDEX_ARRAYS))
def test_row_index_array_is_as_long_as_its_count_or_rows(qualname):
    """Given a count at the recorded position the call makes that many row indices; given an
    array (where it takes one), as many as the array has rows: 10 indices sliced in batches of 4
    leave a last batch of 2 (the key of ``jax.random.permutation`` fills the position before)."""
    module, _, name = qualname.rpartition(".")
    call = getattr(pytest.importorskip(module), name)
    prefix = [jax.random.key(0)] * ROW_INDEX_ARRAYS[qualname]
    indices = np.asarray(call(*prefix, 10))
    assert sorted(indices.tolist()) == list(range(10))
    assert [len(indices[s:s + 4]) for s in range(0, 10, 4)] == [4, 4, 2]
    if qualname.endswith("permutation"):
        rows = np.asarray(call(*prefix, np.arange(30).reshape(10, 3)))
        assert rows.shape == (10, 3)


@pytest.mark.parametrize("qualname,method", sorted((q, m) for q, methods in HOST_RANDOM_GENERATORS.items()
                                                  for m in methods))
def test_host_random_generator_draw_is_baked_in_under_jit(qualname, method):
    module, name = qualname.rsplit(".", 1)
    generator = getattr(importlib.import_module(module), name)(0)
    draw = getattr(generator, method)
    args = HOST_RANDOM_GENERATORS[qualname][method]
    jitted = jax.jit(lambda: jnp.asarray(draw(*args)))
    assert np.array_equal(jitted(), jitted())  # drawn once, at trace time
    assert not np.array_equal(draw(*args), draw(*args))  # eagerly each draw advances the state


@pytest.mark.parametrize("qualname", sorted(SEEDING_CALLS))
def test_seeding_call_makes_the_same_kind_of_value_for_every_seed(qualname):
    """A seed changes the numbers, not the program: two seeds give values of one type, and
    jax keys of one shape and dtype (draws from them compile once)."""
    module, name = qualname.rsplit(".", 1)
    if module == "torch":
        pytest.importorskip("torch")
    if module == "haiku":
        pytest.importorskip("haiku")
    call = getattr(importlib.import_module(module), name)
    first, second = call(0), call(1)
    assert type(first) is type(second)
    if qualname.startswith("jax."):
        assert (first.shape, first.dtype) == (second.shape, second.dtype)
        assert not np.array_equal(jax.random.key_data(first), jax.random.key_data(second))
    elif qualname == "numpy.random.default_rng":
        assert first.random() != second.random()


@pytest.mark.parametrize("qualname", sorted(PYTREE_METADATA_DECORATORS))
def test_pytree_metadata_decorator_compares_an_array_in_the_metadata(qualname):
    """An array in the fields the registration puts in the metadata: the second call with an
    equal (not identical) instance compares the arrays and raises ValueError."""
    import dataclasses

    decorator = _resolve(qualname, jax, "jax.")
    if PYTREE_METADATA_DECORATORS[qualname] == "marked":
        @decorator
        @dataclasses.dataclass
        class Tree:
            x: np.ndarray = dataclasses.field(metadata={"static": True})
    else:
        @decorator
        class Tree:
            def __init__(self, x):
                self.x = x

            def tree_flatten(self):
                return (), (self.x,)

            @classmethod
            def tree_unflatten(cls, aux, children):
                return cls(*aux)

    f = jax.jit(lambda tree: 1.0)
    f(Tree(np.arange(4)))
    with pytest.raises(ValueError):
        f(Tree(np.arange(4)))


@pytest.mark.parametrize("qualname", sorted(FILTER_JITTED_LIBRARY_FUNCTIONS))
def test_filter_jitted_library_function_is_a_filter_jit_wrapper(qualname):
    module, _, name = qualname.rpartition(".")
    function = getattr(pytest.importorskip(module), name)
    eqx = pytest.importorskip("equinox")
    assert isinstance(function, type(eqx.filter_jit(lambda x: x)))


def test_filter_jitted_library_function_compiles_again_for_a_new_python_float():
    """diffrax.diffeqsolve with three Python values of t1: three compiles."""
    diffrax = pytest.importorskip("diffrax")
    from jax import monitoring
    names: list = []

    def listen(event, duration, **kwargs):
        if event == "/jax/core/compile/backend_compile_duration":
            names.append(kwargs.get("fun_name"))

    monitoring.register_event_duration_secs_listener(listen)
    try:
        term = diffrax.ODETerm(lambda t, y, args: -y)
        for t1 in (1.0, 2.0, 3.0):
            diffrax.diffeqsolve(term, diffrax.Tsit5(), t0=0.0, t1=t1, dt0=0.5, y0=jnp.ones(2))
    finally:
        monitoring.unregister_event_duration_listener(listen)
    assert names.count("jit(diffeqsolve)") == 3


@pytest.mark.parametrize("qualname", sorted(q for q, f in TRACING_CALLS.items() if f.wraps and f.in_axes is not None))
def test_wrapping_transform_matches_in_axes_to_positional_arguments(qualname):
    """JIT705: the in_axes tuple (at the recorded parameter) needs one entry per positional
    argument of each call; keyword arguments take none, unless recorded."""
    fact = TRACING_CALLS[qualname]
    module, name = qualname.rsplit(".", 1)
    transform = getattr(importlib.import_module(module), name)
    params = list(inspect.signature(transform).parameters)
    assert params.index(fact.in_axes[1]) == fact.in_axes[0]

    def affine(a, b, c):
        return a * b + c

    x, y = jnp.ones((1, 3)), jnp.ones(3)
    assert transform(affine, **{fact.in_axes[1]: (0, None, 0)})(x, y, x).shape == (1, 3)
    keyword_axes = (0, None, 0) if fact.keywords_take_axes else (0, None)
    assert transform(affine, **{fact.in_axes[1]: keyword_axes})(x, y, c=x).shape == (1, 3)
    with pytest.raises(ValueError):
        transform(affine, **{fact.in_axes[1]: (0, None)})(x, y, x)


def test_python_int_range_is_where_jax_overflows():
    """JIT812: with 64-bit types off, a Python int at the edge of PYTHON_INT_RANGE works in
    arithmetic with a traced value, an int past it raises OverflowError, whatever the traced
    dtype; as a jitted call's argument and in a jitted function's output too."""
    from jitlint.jaxfacts import PYTHON_INT_RANGE
    low, high = PYTHON_INT_RANGE
    assert not jax.config.jax_enable_x64
    for dtype in (jnp.int32, jnp.uint32, jnp.float32):
        x = jnp.ones(2, dtype=dtype)
        jax.jit(lambda v: v + high)(x)
        jax.jit(lambda v: v * low)(x)
        for outside in (high + 1, low - 1):
            with pytest.raises(OverflowError):
                jax.jit(lambda v: v + outside)(x)
    with pytest.raises(OverflowError):
        jax.jit(lambda v: v)(high + 1)
    with pytest.raises(OverflowError):
        jax.jit(lambda v: (v, high + 1))(1)


@pytest.mark.parametrize("qualname", sorted(__import__("jitlint.jaxfacts", fromlist=["x"]).STRONG_ARRAY_CONSTRUCTORS))
def test_strong_array_constructor_result_is_not_weakly_typed(qualname):
    """JIT502: even from Python scalars, the result has a strong dtype, unlike jnp.array(1.0)."""
    module, name = qualname.rsplit(".", 1)
    make = getattr(importlib.import_module(module), name)
    args = {"jax.random.normal": (jax.random.key(0), ()), "jax.random.uniform": (jax.random.key(0), ()),
            "jax.numpy.linspace": (0.0, 1.0, 3), "jax.numpy.eye": (2,), "jax.numpy.identity": (2,),
            "jax.numpy.arange": (3.0,)}.get(qualname, ((),))
    assert not make(*args).weak_type
    assert jnp.array(1.0).weak_type  # the weak counterpart JIT502 pairs it with


def _weak_state_optimizer(qualname: str):
    optax = pytest.importorskip("optax")
    made = _resolve(qualname, optax, "optax.")
    if qualname == "optax.lbfgs":
        return made()
    return optax.chain(optax.sgd(0.1), made(10))  # a line search after a descent direction


@pytest.mark.parametrize("qualname", sorted(__import__("jitlint.jaxfacts", fromlist=["x"]).LEAF_CASTING_UPDATES))
def test_leaf_casting_update_returns_python_float_leaves_strongly_typed(qualname):
    """JIT502: a params pytree of Python floats comes back float32, strongly typed."""
    optax = pytest.importorskip("optax")
    update = _resolve(qualname, optax, "optax.")
    out = jax.jit(lambda p, u: update(p, u))({"w": 0.0, "b": 1.0}, {"w": jnp.float32(0.5), "b": jnp.float32(0.5)})
    assert all(leaf.dtype == jnp.float32 and not leaf.weak_type for leaf in jax.tree.leaves(out))
    weak = jax.jit(lambda p: p)({"w": 0.0})
    assert jax.tree.leaves(weak)[0].weak_type  # the Python float itself goes in weakly typed


@pytest.mark.parametrize("qualname", sorted(__import__("jitlint.jaxfacts", fromlist=["x"]).WEAK_STATE_OPTIMIZERS))
def test_weak_state_optimizer_step_compiles_twice_until_the_state_is_strong(qualname, compiles):
    """JIT502: the init state has weakly typed leaves, the jitted step returns them strongly
    typed: two compiles in three steps; after the advised conversion, one; adam's state keeps
    its types."""
    optax = pytest.importorskip("optax")
    target = jnp.ones(3)

    def loss(p):
        return jnp.sum((p - target) ** 2)

    def run(solver, convert):
        @jax.jit
        def step(params, state):
            value, grad = jax.value_and_grad(loss)(params)
            updates, state = solver.update(grad, state, params, value=value, grad=grad, value_fn=loss)
            return optax.apply_updates(params, updates), state

        params = jnp.zeros(3)
        state = solver.init(params)
        if convert:
            state = jax.tree.map(lambda a: jnp.asarray(a, jnp.result_type(a)), state)
        before = len(compiles)
        for _ in range(3):
            params, state = step(params, state)
        return sum(1 for name in compiles[before:] if name == "jit(step)")

    solver = _weak_state_optimizer(qualname)
    assert any(getattr(leaf, "weak_type", False) for leaf in jax.tree.leaves(solver.init(jnp.zeros(3))))
    assert run(solver, convert=False) == 2
    assert run(solver, convert=True) == 1
    assert run(optax.adam(0.1), convert=False) == 1


@pytest.mark.parametrize("qualname", sorted(__import__("jitlint.jitnames", fromlist=["x"]).KNOWN_JIT_WRAPPERS))
def test_known_jit_wrapper_behaves_as_recorded(qualname, compiles):
    """A known wrapper recorded as equinox.filter_jit makes a Python float static (a compile per
    value) and traces an array (one compile); skipped where the package is not installed."""
    from jitlint.jitnames import KNOWN_JIT_WRAPPERS
    assert KNOWN_JIT_WRAPPERS[qualname] == "equinox.filter_jit"
    module, name = qualname.rsplit(".", 1)
    wrap = getattr(pytest.importorskip(module), name)
    if module.startswith("haliax"):
        pytest.skip("haliax's named_jit needs named axes; its partitioning source records the behaviour")

    def shift(x, y):
        return x + y

    shifted = wrap(shift)
    x = jnp.arange(3.0)
    arrays = [jnp.asarray(y) for y in (0.5, 1.5, 2.5)]
    before = len(compiles)
    for y in (0.5, 1.5, 2.5):
        shifted(x, y)
    per_float = compiles[before:]
    before = len(compiles)
    for y in arrays:
        shifted(x, y)
    assert len(per_float) == 3 and compiles[before:] == per_float[:1]


def _library_results(k):
    """One call of each ARGUMENT_TRACED_LIBRARY_FUNCTIONS entry with ``k`` (traced) as input."""
    diffrax = pytest.importorskip("diffrax")
    optx = pytest.importorskip("optimistix")
    lx = pytest.importorskip("lineax")
    y0 = jnp.ones(2)
    solution = diffrax.diffeqsolve(diffrax.ODETerm(lambda t, y, a: -a * y), diffrax.Tsit5(), 0.0, 1.0, 0.1,
                                   y0, args=k)
    return {
        "diffrax.diffeqsolve": solution,
        "optimistix.root_find": optx.root_find(lambda y, a: y - a, optx.Newton(1e-5, 1e-5), y0, args=k),
        "optimistix.minimise": optx.minimise(lambda y, a: jnp.sum((y - a) ** 2), optx.BFGS(1e-5, 1e-5), y0,
                                             args=k),
        "optimistix.least_squares": optx.least_squares(lambda y, a: y - a, optx.LevenbergMarquardt(1e-5, 1e-5),
                                                       y0, args=k),
        "optimistix.fixed_point": optx.fixed_point(lambda y, a: 0.5 * y + a, optx.FixedPointIteration(1e-5, 1e-5),
                                                   y0, args=k),
        "lineax.linear_solve": lx.linear_solve(lx.MatrixLinearOperator(2.0 * jnp.eye(2)), y0 * k),
        "diffrax.is_okay": diffrax.is_okay(solution.result),
        "diffrax.is_successful": diffrax.is_successful(solution.result),
        "diffrax.is_event": diffrax.is_event(solution.result),
    }


def test_argument_traced_library_functions_return_tracers_where_listed():
    seen = {}

    @jax.jit
    def run(k):
        for name, result in _library_results(k).items():
            fields = ARGUMENT_TRACED_LIBRARY_FUNCTIONS[name]
            values = [getattr(result, field) for field in fields] if fields else [result]
            leaves = [leaf for value in values for leaf in jax.tree_util.tree_leaves(value)]
            seen[name] = bool(leaves) and all(isinstance(leaf, jax.core.Tracer) for leaf in leaves)
        return k

    run(jnp.float32(0.5))
    assert set(seen) == set(ARGUMENT_TRACED_LIBRARY_FUNCTIONS)
    assert all(seen.values()), seen


def test_odeint_keys_its_jit_on_the_vector_field():
    """FUNCTION_KEYED_LIBRARY_CALLS beyond the filter-jitted ones: two equal lambdas compile
    odeint twice, one function given twice compiles it once."""
    from jax.experimental.ode import odeint

    from jitlint.runtime import count_compiles

    assert FUNCTION_KEYED_LIBRARY_CALLS - FILTER_JITTED_LIBRARY_FUNCTIONS == {"jax.experimental.ode.odeint"}
    y0, ts = jnp.asarray(1.0), jnp.asarray([0.0, 1.0])

    def decay(y, t):
        return -y

    with count_compiles(cold=True) as fresh:
        for _ in range(2):
            odeint(lambda y, t: -y, y0, ts)
    with count_compiles(cold=True) as reused:
        for _ in range(2):
            odeint(decay, y0, ts)
    def odeint_compiles(counts):
        return sum(1 for e in counts.events if e.name == "_odeint_wrapper")

    assert odeint_compiles(fresh) == 2 * odeint_compiles(reused) == 2, (fresh.describe(), reused.describe())


def test_function_running_calls_call_the_functions_they_are_given():
    """Each FUNCTION_RUNNING_CALLS entry runs the function at its first listed parameter
    before it returns, again and again (a jit made per call and handed to it compiles for that
    call; a fresh jit or lax body inside the function compiles on every evaluation)."""
    scipy_optimize = pytest.importorskip("scipy.optimize")
    scipy_integrate = pytest.importorskip("scipy.integrate")
    calls = []

    def f(x, *args):
        calls.append(1)
        return np.asarray(x, dtype=float) - 1.0

    def scalar(x, *args):
        calls.append(1)
        return float(np.sum((np.asarray(x) - 1.0) ** 2))

    examples = {
        "scipy.optimize.minimize": lambda: scipy_optimize.minimize(scalar, np.zeros(2)),
        "scipy.optimize.root": lambda: scipy_optimize.root(f, np.zeros(2)),
        "scipy.optimize.least_squares": lambda: scipy_optimize.least_squares(f, np.zeros(2)),
        "scipy.optimize.minimize_scalar": lambda: scipy_optimize.minimize_scalar(scalar),
        "scipy.optimize.root_scalar": lambda: scipy_optimize.root_scalar(lambda x: f(x), bracket=(0.0, 3.0)),
        "scipy.optimize.curve_fit": lambda: scipy_optimize.curve_fit(lambda x, a: np.exp(a * f(x)), np.arange(3.0),
                                                                     np.array([0.5, 2.0, 1.0])),
        "scipy.optimize.fsolve": lambda: scipy_optimize.fsolve(f, np.zeros(2)),
        "scipy.integrate.solve_ivp": lambda: scipy_integrate.solve_ivp(lambda t, y: f(y), (0.0, 1.0), [0.0]),
        "scipy.integrate.quad": lambda: scipy_integrate.quad(scalar, 0.0, 1.0),
        **_booster_examples(calls),
    }
    assert set(examples) == set(FUNCTION_RUNNING_CALLS)
    for name, run in examples.items():
        calls.clear()
        run()
        assert len(calls) >= 3, name


def _booster_examples(calls: list) -> dict:
    """xgboost's and lightgbm's entries: five boosting rounds, each calling the custom
    objective (the estimators' ``fit`` the one they were built with; ``lightgbm.train`` its
    ``feval``).  Skipped where the test extras' boosters are not installed."""
    xgb = pytest.importorskip("xgboost")
    lgb = pytest.importorskip("lightgbm")
    pytest.importorskip("sklearn")  # lightgbm's estimators
    features = np.random.default_rng(0).normal(size=(40, 2))
    labels = (features[:, 0] > 0).astype(float)

    def objective(y_true, y_pred):  # the estimators' (and xgboost.train's, as (preds, dtrain))
        calls.append(1)
        preds = np.asarray(y_true if isinstance(y_pred, xgb.DMatrix) else y_pred, dtype=float)
        return preds - np.resize(labels, preds.shape), np.ones(preds.shape)

    def metric(preds, data):
        calls.append(1)
        return "zero", 0.0, False

    def fit(estimator):
        return lambda: estimator(n_estimators=5, objective=objective, **(
            {"verbose": -1, "min_child_samples": 2} if estimator.__module__.startswith("lightgbm") else {}
        )).fit(features, labels if "Classifier" not in estimator.__name__ else labels.astype(int))

    examples = {
        "xgboost.train": lambda: xgb.train({}, xgb.DMatrix(features, label=labels), num_boost_round=5, obj=objective),
        "lightgbm.train": lambda: lgb.train({"verbose": -1, "min_data_in_leaf": 2}, lgb.Dataset(features, label=labels),
                                            num_boost_round=5, valid_sets=[lgb.Dataset(features, label=labels)],
                                            feval=metric),
    }
    for name in FUNCTION_KEEPING_ESTIMATORS:
        module, _, cls = name.partition(".")
        if cls == "LGBMRanker":
            examples[name] = lambda: lgb.LGBMRanker(n_estimators=5, objective=objective, verbose=-1,
                                                    min_child_samples=2).fit(features, labels, group=[10] * 4)
        else:
            examples[name] = fit(getattr(xgb if module == "xgboost" else lgb, cls))
    return examples


@pytest.mark.parametrize("qualname", sorted(SOLVER_PARAMETERS))
def test_solver_parameters_name_the_solver_argument(qualname):
    """SOLVER_PARAMETERS: the solver is that positional parameter of the library function."""
    module, _, name = qualname.rpartition(".")
    function = getattr(pytest.importorskip(module), name)
    position, keyword = SOLVER_PARAMETERS[qualname]
    assert list(inspect.signature(function).parameters)[position] == keyword


# arguments of each jax.Array method in ARRAY_METHODS (on a 2x2 float array; ``at[0].<op>(1.0)``
# for the update methods)
_ARRAY_METHOD_ARGS = {"astype": (jnp.float16,), "reshape": (4,), "dot": (jnp.eye(2),), "clip": (0.0, 1.0),
                      "take": (jnp.array([0]),), "swapaxes": (0, 1), "repeat": (2,), "searchsorted": (1.0,),
                      "choose": ([jnp.zeros(2), jnp.ones(2)],), "compress": (jnp.array([True, False]),),
                      "view": (jnp.int32,)}
_AT_METHODS = ("set", "add", "multiply", "divide", "power", "get", "apply")


@pytest.mark.parametrize("method", sorted(ARRAY_METHODS))
def test_array_method_returns_an_unhashable_jax_array(method):
    """What jitlint assumes of ``x.<method>(...)`` on a jax Array: a jax Array again (so it is
    traced under jit, and unhashable at a static position, a reduction included)."""
    x = jnp.array([[0.0, 1.0], [2.0, 3.0]])
    if method in _AT_METHODS:
        result = getattr(x.at[0], method)(*(() if method == "get" else (jnp.negative,) if method == "apply" else (1.0,)))
    elif method in ("choose", "searchsorted"):  # of a 1-d array
        result = getattr(jnp.array([0, 1]), method)(*_ARRAY_METHOD_ARGS[method])
    else:
        result = getattr(x, method)(*_ARRAY_METHOD_ARGS.get(method, ()))
    results = result if isinstance(result, tuple) else (result,)  # ``nonzero`` gives one per axis
    for each in results:
        assert isinstance(each, jax.Array), (method, type(each))
        with pytest.raises(TypeError):
            hash(each)


@pytest.mark.parametrize("qualname", sorted(q for q, f in TRACING_CALLS.items()
                                            if f.arguments_from is not None or f.arguments_in is not None))
def test_evaluating_transform_hands_every_argument_to_the_function_as_a_tracer(qualname):
    """``jax.vjp(f, x, a)`` / ``jax.jvp(f, (x, a), ...)``: a static position of a jitted ``f``
    gets a tracer there, which is unhashable (ValueError)."""
    fact, transform = TRACING_CALLS[qualname], _resolve(qualname, jax, "jax.")
    scaled = jax.jit(lambda x, scale: scale * x, static_argnums=1)
    scaled(jnp.float32(1.0), 2.0)  # called directly, the static float hashes
    call = (lambda: transform(scaled, jnp.float32(1.0), 2.0)) if fact.arguments_from == 1 else \
        (lambda: transform(scaled, (jnp.float32(1.0), 2.0), (jnp.float32(1.0), 0.0)))
    assert fact.arguments_from in (None, 1) and fact.arguments_in in (None, 1)
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        call()


@pytest.mark.parametrize("qualname", sorted(WEAK_SCALAR_ARRAYS))
def test_weak_scalar_array_keeps_the_python_scalars_weak_type_unless_given_a_dtype(qualname):
    make = _resolve(qualname, jax, "jax.")
    leading = [(3,)] * WEAK_SCALAR_ARRAYS[qualname]  # the shape before the fill value
    for scalar in (1.0, 50):
        assert make(*leading, scalar).weak_type
        assert not make(*leading, scalar, dtype=jnp.float32).weak_type


_ITERATOR_EXAMPLES = {"iter": ([1.0, 2.0],), "zip": ([1.0], [2.0]), "map": (float, [1]),
                      "filter": (None, [1.0]), "enumerate": ([1.0],), "reversed": ([1.0, 2.0],),
                      "range": (3,)}


@pytest.mark.parametrize("builtin", sorted(ITERATOR_BUILTINS))
def test_iterator_builtin_result_is_not_a_valid_jax_type_at_a_traced_position(builtin):
    assert set(_ITERATOR_EXAMPLES) == set(ITERATOR_BUILTINS)
    value = getattr(builtins, builtin)(*_ITERATOR_EXAMPLES[builtin])
    with pytest.raises(TypeError):
        jax.jit(lambda xs: xs)(value)


@pytest.mark.parametrize("qualname", sorted(TRACE_ERROR_CATCHERS))
def test_trace_error_catcher_catches_a_truth_test_of_a_tracer(qualname):
    """A ``try`` with a handler of each TRACE_ERROR_CATCHERS entry catches the error of a
    Python ``if`` on a tracer at trace time: the jitted function compiles and runs."""
    module, _, name = qualname.rpartition(".")
    caught = getattr(builtins if module == "builtins" else importlib.import_module(module), name)

    def checked(x):
        try:
            if jnp.any(x > 1):
                raise ValueError("too large")
        except caught:
            pass
        return x * 2

    assert float(jax.jit(checked)(jnp.ones(2)).sum()) == 4.0


def _dispatching(decorator, registered):
    """A dispatching function: "fallback" by default, "array" for the ``registered`` classes."""
    @decorator
    def kind(value):
        return "fallback"

    for cls in registered:
        kind.register(cls)(lambda value: "array")
    return kind


@pytest.mark.parametrize("decorator", sorted(TYPE_DISPATCH_DECORATORS))
@pytest.mark.parametrize("array_class", sorted(ARRAY_DISPATCH_CLASSES))
def test_dispatch_on_an_array_class_misses_tracers_unless_a_tracer_class_is_registered(decorator, array_class):
    jax = pytest.importorskip("jax")
    dispatch = _resolve(decorator, importlib.import_module("functools"), "functools.")
    array_type = _resolve(array_class, jax, "jax.")
    for registered, traced_kind in (((array_type,), "fallback"),
                                    ((array_type, *(_resolve(t, jax, "jax.") for t in TRACER_TYPES)), "array")):
        kind = _dispatching(dispatch, registered)
        seen = {}

        def body(x):
            seen["traced"] = kind(x)
            return x

        assert kind(jax.numpy.ones(2)) == "array"
        jax.jit(body)(jax.numpy.ones(2))
        assert seen["traced"] == traced_kind
        jax.vmap(body)(jax.numpy.ones(2))
        assert seen["traced"] == traced_kind


# a call of each lax function that hands ``fn`` its arguments (two operands for cond/switch)
_LAX_CALLS = {
    "jax.lax.scan": lambda lax, jnp, fn: lax.scan(fn, 0.0, jnp.arange(3.0)),
    "jax.lax.fori_loop": lambda lax, jnp, fn: lax.fori_loop(0, 3, fn, 0.0),
    "jax.lax.while_loop": lambda lax, jnp, fn: lax.while_loop(lambda c: c < 3.0, fn, 0.0),
    "jax.lax.map": lambda lax, jnp, fn: lax.map(fn, jnp.arange(3.0)),
    "jax.lax.cond": lambda lax, jnp, fn: lax.cond(True, fn, fn, 1.0, 2.0),
    "jax.lax.switch": lambda lax, jnp, fn: lax.switch(0, [fn, fn], 1.0, 2.0),
}


@pytest.mark.parametrize("qualname", sorted(LAX_BODY_ARITY))
def test_lax_function_hands_tracers_at_every_argument_it_passes(qualname):
    """A jitted function marking any of the arguments lax passes static raises ValueError
    (non-hashable static arguments); the same function without static arguments runs."""
    jax = pytest.importorskip("jax")
    import functools

    arity = LAX_BODY_ARITY[qualname]
    passed = arity if arity is not None else 2  # the two operands _LAX_CALLS hands cond/switch
    assert (arity is None) == (qualname in LAX_OPERANDS_FROM)

    def body(*args):
        out = sum(args[1:], args[0]) if len(args) > 1 else args[0] + 1.0
        return (out, out) if qualname == "jax.lax.scan" else out

    call = _LAX_CALLS[qualname]
    call(jax.lax, jax.numpy, jax.jit(body))  # nothing static: runs
    for position in range(passed):
        with pytest.raises(ValueError, match="Non-hashable static arguments"):
            call(jax.lax, jax.numpy, functools.partial(jax.jit, static_argnums=position)(body))



@pytest.mark.parametrize("qualname", sorted(FLOAT_WHEN_FLOAT_BOUND_RANGES))
def test_range_with_a_float_bound_gives_floats_and_with_int_bounds_ints(qualname):
    module = "jax.numpy" if qualname.startswith("jax.numpy.") else "numpy"
    function = _resolve(qualname, importlib.import_module(module), module + ".")
    assert function(0, 2.1, 0.5).dtype.kind == "f" and function(0, 2, 1).dtype.kind == "i"


@pytest.mark.parametrize("qualname", sorted(FLOAT_RANGES))
def test_float_range_gives_floats_that_cannot_size_an_array(qualname):
    """A loop over one of these iterates data values: even integer bounds give floats, and a
    float element cannot be a size (so it never shapes the program)."""
    module = "jax.numpy" if qualname.startswith("jax.numpy.") else "numpy"
    function = _resolve(qualname, importlib.import_module(module), module + ".")
    values = function(1, 4, 4)
    assert values.dtype.kind == "f" and len(values) == 4
    with pytest.raises(TypeError):
        jnp.zeros(values[1])


@pytest.mark.parametrize("qualname", sorted(AXIS_KEEPING_RESULTS))
def test_axis_keeping_result_has_an_axis_even_from_scalars(qualname):
    module = "jax.numpy" if qualname.startswith("jax.numpy.") else "numpy"
    function = _resolve(qualname, importlib.import_module(module), module + ".")
    name = qualname.rsplit(".", 1)[1]
    args = {"concatenate": ([jnp.ones(1), jnp.ones(2)],), "stack": ([jnp.ones(()), jnp.ones(())],),
            "hstack": ([jnp.ones(()), jnp.ones(())],), "vstack": ([jnp.ones(()), jnp.ones(())],),
            "unique": (jnp.ones(()),), "sort": (jnp.ones(3),), "atleast_1d": (jnp.ones(()),)}.get(name, (1, 4, 3))
    assert np.ndim(function(*args)) >= 1


@pytest.mark.parametrize("qualname", sorted(q for q, facts in CONCRETE_PARAMS.items()
                                            if any(f.count_or_edges for f in facts)))
def test_count_or_edges_param_takes_traced_edges_but_not_a_traced_count(qualname):
    function = _resolve(qualname, jax, "jax.")
    x = jnp.linspace(0.0, 1.0, 20)
    jax.jit(lambda v, edges: function(v, bins=edges))(x, jnp.array([0.0, 0.5, 1.0]))  # traced edges: fine
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda v, count: function(v, bins=count))(x, 4)
