"""Every entry of jitlint.jaxfacts checked against the installed JAX: the table is what the
trace-time rules believe, so a JAX release that changes a fact must fail here, not in users'
findings."""

from __future__ import annotations

import inspect

import pytest

from jitlint.jaxfacts import (BOOLEAN_RESULT_FUNCTIONS, DATA_SIZED_METHODS, DATA_SIZED_OUTPUTS,
                              NUMPY_ARRAY_CONSTRUCTORS, RAGGED_BATCHERS)

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
