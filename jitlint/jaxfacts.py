"""Facts about JAX's API that rules read, as data: adding a function here needs no rule code.

Every entry is checked against the installed JAX by ``tests/test_jaxfacts.py`` (it must raise
under jit without the fix this table names, and work with it).  The static path never imports
JAX: these are plain names.
"""

from __future__ import annotations

from dataclasses import dataclass

# (position, keyword) of a parameter; a keyword of "" means positional-only.
Param = tuple[int, str]


@dataclass(frozen=True)
class DataSizedOutput:
    """A function whose output shape depends on the *values* of its input (``jnp.nonzero``):
    under jit, with a traced value at one of ``data_params``, tracing raises
    ConcretizationTypeError unless ``size_keyword`` gives the output a static size."""

    size_keyword: str
    data_params: tuple[Param, ...] = ((0, ""),)
    # Only the form with at most this many positional arguments is data-sized
    # (``jnp.where(cond)``; ``jnp.where(cond, x, y)`` is elementwise and fine).
    max_positional: int | None = None


_FIRST = ((0, ""),)
_EITHER = ((0, "ar1"), (1, "ar2"))

DATA_SIZED_OUTPUTS: dict[str, DataSizedOutput] = {
    "jax.numpy.nonzero": DataSizedOutput("size", ((0, "a"),)),
    "jax.numpy.flatnonzero": DataSizedOutput("size", ((0, "a"),)),
    "jax.numpy.argwhere": DataSizedOutput("size", ((0, "a"),)),
    "jax.numpy.where": DataSizedOutput("size", _FIRST, max_positional=1),
    "jax.numpy.unique": DataSizedOutput("size", ((0, "ar"),)),
    "jax.numpy.unique_values": DataSizedOutput("size", _FIRST),
    "jax.numpy.unique_counts": DataSizedOutput("size", _FIRST),
    "jax.numpy.unique_inverse": DataSizedOutput("size", _FIRST),
    "jax.numpy.unique_all": DataSizedOutput("size", _FIRST),
    "jax.numpy.union1d": DataSizedOutput("size", _EITHER),
    "jax.numpy.setdiff1d": DataSizedOutput("size", _EITHER),
    "jax.numpy.intersect1d": DataSizedOutput("size", _EITHER),
    "jax.numpy.setxor1d": DataSizedOutput("size", _EITHER),
    "jax.numpy.compress": DataSizedOutput("size", ((0, "condition"),)),
    "jax.numpy.extract": DataSizedOutput("size", ((0, "condition"),)),
    "jax.numpy.bincount": DataSizedOutput("length", ((0, "x"),)),
    "jax.numpy.repeat": DataSizedOutput("total_repeat_length", ((1, "repeats"),)),
}
# jax.Array methods of the same kind: method name -> its size keyword.
DATA_SIZED_METHODS: dict[str, str] = {"nonzero": "size"}

# jax.numpy functions whose result is a boolean array: indexing with it is a boolean mask.
BOOLEAN_RESULT_FUNCTIONS = frozenset(f"jax.numpy.{name}" for name in (
    "isnan", "isinf", "isfinite", "isneginf", "isposinf", "isclose", "isin", "signbit",
    "logical_and", "logical_or", "logical_not", "logical_xor", "equal", "not_equal", "less",
    "less_equal", "greater", "greater_equal", "iscomplex", "isreal",
))

# numpy functions that return a new numpy.ndarray.  Indexing one with a tracer inside jit makes
# numpy convert the tracer (TracerArrayConversionError); ``jnp.asarray(table)[i]`` works.
NUMPY_ARRAY_CONSTRUCTORS = frozenset(f"numpy.{name}" for name in (
    "array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "logspace",
    "eye", "identity", "diag", "stack", "concatenate", "vstack", "hstack", "load", "loadtxt",
    "genfromtxt", "fromfunction", "tile", "meshgrid", "tri", "tril", "triu",
    "random.rand", "random.randn", "random.randint", "random.normal", "random.uniform",
    "random.permutation", "random.choice",
))


# ---------------------------------------------------------------------------- changing statics
# lax control flow that, called outside jit, traces its function arguments and caches the
# compiled program keyed on those functions (their hash and ``==``): an equal function object
# reuses it, any other compiles again (measured: two instances of a class that defines
# __hash__ but not __eq__ compile twice).  qualname -> the function parameters.  Not
# ``lax.map``: it wraps ``f`` in a new function on every call, so it compiles every time anyway.
EAGER_LAX_FUNCTION_PARAMS: dict[str, tuple[Param, ...]] = {
    "jax.lax.scan": ((0, "f"),),
    "jax.lax.fori_loop": ((2, "body_fun"),),
    "jax.lax.while_loop": ((0, "cond_fun"), (1, "body_fun")),
    "jax.lax.cond": ((1, "true_fun"), (2, "false_fun")),
}

# How a library marks a pytree class's field static (part of the tree structure, which every
# jit hashes and compares with ``==``): qualname -> (keyword, value) that marks it, or None when
# the call always does.  An array there cannot be compared (ValueError on the second instance).
STATIC_FIELD_MARKERS: dict[str, tuple[str, bool] | None] = {
    "equinox.field": ("static", True),
    "equinox.static_field": None,
    "flax.struct.field": ("pytree_node", False),
}

# Transforms that return a new callable on every application: ``jax.jit(T(f))`` built per
# step traces and compiles on every step, also for a module-level ``f`` (jit caches on the
# wrapped object's identity and holds it weakly).  Built once and re-jitted, the same object
# hits the cache: one compile.  tests/test_jaxfacts.py checks both for every entry.
FRESH_TRANSFORMS = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev", "jax.hessian",
    "jax.checkpoint", "jax.remat", "jax.named_call", "jax.custom_vjp", "jax.custom_jvp",
    "jax.custom_gradient", "jax.shard_map", "jax.experimental.checkify.checkify",
})
# The same transforms under other names they are imported by.
FRESH_TRANSFORM_SPELLINGS = {
    "jax._src.shard_map.shard_map": "jax.shard_map",
    "jax.experimental.shard_map.shard_map": "jax.shard_map",
}

# Methods that framework base classes give every subclass, each a new bound method per access:
# ``jax.jit(model.apply)`` per step compiles every step (measured, flax 0.12.8: 5 compiles in
# 5 steps, fixtures/receivers/linen_apply_in_loop.py).  JIT104 reads them on classes whose
# base it cannot read.  tests/test_jaxfacts.py checks each is a method bound per access.
FRAMEWORK_METHODS = {
    "flax.linen.Module": frozenset({"apply", "init", "init_with_output"}),
    "flax.linen.module.Module": frozenset({"apply", "init", "init_with_output"}),
}


@dataclass(frozen=True)
class RaggedBatcher:
    """A data loader (or splitter) whose last batch is shorter than the others when the data's
    length is not a multiple of the batch size, unless ``drop_keyword`` is passed true; ""
    means it has no such keyword (``np.array_split``: chunks differ in length by one).  Keys
    are qualified names; for a method (``ds.batch(32)``) the key is ``<module>.<Class>.<method>``
    and ``receiver`` the module the dataset must come from (``tf.data.Dataset.range(10)...``)."""

    drop_keyword: str
    batch_size: Param  # where the batch size (or the number of chunks) is passed
    docs: str  # the library's documentation of the keyword and its default
    receiver: str = ""
    default_batch_size: int = 0  # when it may be omitted (torch: 1, which is never ragged)


_TORCH_DOCS = "https://pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader"
_TF_DOCS = "https://www.tensorflow.org/api_docs/python/tf/data/Dataset#batch"
_GRAIN_DOCS = "https://google-grain.readthedocs.io/en/latest/grain.dataset.html"
_GRAIN_OPERATION_DOCS = "https://google-grain.readthedocs.io/en/latest/grain.transforms.html"
_NUMPY_SPLIT_DOCS = "https://numpy.org/doc/stable/reference/generated/numpy.array_split.html"

# Loaders that yield a short last batch unless asked not to (each tested against the library
# where it is installed: tests/test_jaxfacts.py).
RAGGED_BATCHERS: dict[str, RaggedBatcher] = {
    "torch.utils.data.DataLoader": RaggedBatcher("drop_last", (1, "batch_size"), _TORCH_DOCS,
                                                 default_batch_size=1),
    "tensorflow.data.Dataset.batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _TF_DOCS,
                                                   receiver="tensorflow"),
    "tensorflow.data.Dataset.padded_batch": RaggedBatcher("drop_remainder", (0, "batch_size"),
                                                          _TF_DOCS, receiver="tensorflow"),
    "grain.MapDataset.batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_DOCS,
                                            receiver="grain"),
    "grain.IterDataset.batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_DOCS,
                                             receiver="grain"),
    "grain.python.Batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_OPERATION_DOCS),
    "grain.transforms.Batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_OPERATION_DOCS),
    "numpy.array_split": RaggedBatcher("", (1, "indices_or_sections"), _NUMPY_SPLIT_DOCS),
    "jax.numpy.array_split": RaggedBatcher("", (1, "indices_or_sections"), _NUMPY_SPLIT_DOCS),
}
