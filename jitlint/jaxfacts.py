"""Facts about JAX's API that rules read, as data: adding a function here needs no rule code.

Every entry is checked against the installed JAX by ``tests/test_jaxfacts.py`` (it must raise
under jit without the fix this table names, and work with it).  The static path never imports
JAX: these are plain names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from jitlint import scipy_array_api

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
    # it raises on a constant too (a NumPy array): jit stages its input out first
    on_constants: bool = True
    # the size may be passed positionally at this position too (``segment_sum(x, ids, 3)``)
    size_position: int | None = None
    # the advice, where the keyword is no upper bound (``jnp.delete``'s flag)
    fix: str = ""


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
    "jax.numpy.repeat": DataSizedOutput("total_repeat_length", ((1, "repeats"),), on_constants=False),
    # traced indices may repeat, so the count deleted is data: unless they are promised unique
    "jax.numpy.delete": DataSizedOutput(
        "assume_unique_indices", ((1, "obj"),), on_constants=False,
        fix="pass assume_unique_indices=True when the indices never repeat (the size is then known), "
            "or keep the array and mask the deleted entries (jnp.where)"),
    # without num_segments the count is max(segment_ids) + 1, read from the traced ids
    **{f"jax.ops.{name}": DataSizedOutput("num_segments", ((1, "segment_ids"),), size_position=2)
       for name in ("segment_sum", "segment_max", "segment_min", "segment_prod")},
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

# NumPy math whose result is a NumPy scalar or array whatever it is given (``np.exp(0.1)`` is
# an ``np.float64``): strongly typed for jit, unlike the Python float it may replace (an HMC
# step size adapted with ``eps *= 1.01``, then set to ``np.exp(np.mean(np.log(eps_list)))``:
# two compiles). tests/test_jaxfacts.py checks each returns a NumPy type for a Python float.
NUMPY_VALUE_FUNCTIONS = frozenset(f"numpy.{name}" for name in (
    "exp", "log", "log2", "log10", "log1p", "expm1", "sqrt", "square", "abs", "sin", "cos", "tan", "tanh",
    "mean", "sum", "prod", "std", "var", "median", "max", "min", "amax", "amin", "power", "clip",
))

# ---------------------------------------------------------------------------- changing statics
# lax control flow: qualname -> its function parameters (position, name). Called outside jit,
# each call traces those functions and compiles a program (JIT520 in a Python loop; JIT101-style
# fresh lambdas there compile on every call). A while loop lists its body first: a finding names
# the body when both functions are fresh. ``switch`` takes its branches as one sequence.
LAX_CONTROL_FLOW_FUNCTION_PARAMS: dict[str, tuple[Param, ...]] = {
    "jax.lax.scan": ((0, "f"),),
    "jax.lax.fori_loop": ((2, "body_fun"),),
    "jax.lax.while_loop": ((1, "body_fun"), (0, "cond_fun")),
    "jax.lax.cond": ((1, "true_fun"), (2, "false_fun")),
    "jax.lax.switch": ((1, "branches"),),
    "jax.lax.map": ((0, "f"),),
}
# How many arguments each lax function hands the function it is given, all of them tracers (the
# carry and the slice, the loop index and the carry, the operands): a jitted function marking
# one of them static raises ValueError (non-hashable static arguments) while lax traces it.
# None: as many as the call passes operands after its own (``lax.cond(pred, f, g, *operands)``,
# ``lax.switch(i, branches, *operands)``: ``LAX_OPERANDS_FROM``).  tests/test_jaxfacts.py.
LAX_BODY_ARITY: dict[str, Optional[int]] = {
    "jax.lax.scan": 2, "jax.lax.fori_loop": 2, "jax.lax.while_loop": 1, "jax.lax.map": 1,
    "jax.lax.cond": None, "jax.lax.switch": None,
}
LAX_OPERANDS_FROM: dict[str, int] = {"jax.lax.cond": 3, "jax.lax.switch": 2}
# the transforms that, besides jit, stage the functions they trace into one program (measured
# for checkify.check, UNFUNCTIONALIZED_CALLS)
STAGING_TRACES = frozenset({*LAX_CONTROL_FLOW_FUNCTION_PARAMS, "jax.pmap"})
# Those that cache the compiled program keyed on their function arguments (their hash and
# ``==``): an equal function object reuses it, any other compiles again (measured: two instances
# of a class that defines __hash__ but not __eq__ compile twice). Not ``lax.map``: it wraps ``f``
# in a new function on every call, so it compiles every time anyway; not ``switch``, whose
# branches come as a sequence.
EAGER_LAX_FUNCTION_PARAMS: dict[str, tuple[Param, ...]] = {
    name: params for name, params in LAX_CONTROL_FLOW_FUNCTION_PARAMS.items()
    if name not in ("jax.lax.map", "jax.lax.switch")}

# How a library marks a pytree class's field static (part of the tree structure, which every
# jit hashes and compares with ``==``): qualname -> (keyword, value) that marks it, or None when
# the call always does.  An array there cannot be compared (ValueError on the second instance).
STATIC_FIELD_MARKERS: dict[str, tuple[str, bool] | None] = {
    "equinox.field": ("static", True),
    "equinox.static_field": None,
    "flax.struct.field": ("pytree_node", False),
}

# Pytree dataclasses whose every field is a leaf unless marked static (STATIC_FIELD_MARKERS):
# under jax.jit a field annotated ``int`` is a tracer too, so ``lax.scan(length=c.n)`` raises
# (chex#104).  chex.dataclass has no static marker at all.  Measured by tests/test_jaxfacts.py.
# Exceptions whose handler catches the trace-time error of a truth test of a tracer
# (TracerBoolConversionError, a ConcretizationTypeError, a TypeError): a ``try`` around traced
# code with such a handler raises nothing there (jax-md 8bbe142 skips a check under jit this
# way).  Checked by tests/test_jaxfacts.py.
TRACE_ERROR_CATCHERS = frozenset({
    "jax.errors.ConcretizationTypeError", "jax.errors.TracerBoolConversionError",
    "builtins.TypeError", "builtins.Exception", "builtins.BaseException",
})

# ``jax.tree_util.register_dataclass`` used bare over a dataclass (no data_fields / meta_fields:
# every field not marked ``metadata={"static": True}`` is data).
LEAF_FIELD_DATACLASSES = frozenset({"chex.dataclass", "flax.struct.dataclass", "flax.struct.PyTreeNode",
                                    "typing.NamedTuple", "jax.tree_util.register_dataclass"})

# Decorators that, used bare, leave a def called with the arguments it is given: under
# ``jax.jit(f)`` of ``@jax.custom_jvp def f(x)`` the primal body runs with ``x`` a tracer
# (pytzer 93b0950); jaxtyping's run-time shape checker calls it as it is (jaxtyping#12).
# Checked by tests/test_jaxfacts.py.
ARGUMENT_KEEPING_DECORATORS = frozenset({"jax.custom_jvp", "jax.custom_vjp", "jaxtyping.jaxtyped"})

# Constructors whose elements are floats spread over a range (without ``dtype=``): a loop over
# one sweeps data values (a noise level, a temperature), never sizes or modes, so a jit that
# closes over the item builds one program with a new constant each time (tests/test_jaxfacts.py
# checks each gives floats).
FLOAT_RANGES = frozenset({
    "numpy.linspace", "numpy.logspace", "numpy.geomspace",
    "jax.numpy.linspace", "jax.numpy.logspace", "jax.numpy.geomspace",
})
# Ranges whose elements are floats when a bound or the step is a float literal
# (``np.arange(0, 2.1, 0.5)``); with int bounds they count sizes (tests/test_jaxfacts.py).
FLOAT_WHEN_FLOAT_BOUND_RANGES = frozenset({"numpy.arange", "jax.numpy.arange"})

# Transforms that return a new callable on every application: ``jax.jit(T(f))`` built per
# step traces and compiles on every step, also for a module-level ``f`` (jit caches on the
# wrapped object's identity and holds it weakly).  Built once and re-jitted, the same object
# hits the cache: one compile.  tests/test_jaxfacts.py checks both for every entry.
FRESH_TRANSFORMS = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev", "jax.hessian",
    "jax.checkpoint", "jax.remat", "jax.named_call", "jax.custom_vjp", "jax.custom_jvp",
    "jax.custom_gradient", "jax.shard_map", "jax.experimental.checkify.checkify",
})
# Transforms that keep no compiled program: every call of what ``T(f)`` returns runs ``f``'s
# Python again (a jit and ``jax.checkpoint`` trace once and reuse).  Called outside a jit, ``f``
# then runs eagerly as often as the result is called: a fresh jit or lax body inside it
# compiles on every call (measured: ``jax.grad(loss)(p)`` 5 times, a ``lax.scan`` of a lambda in
# ``loss`` compiles 10 times, forward and backward).  tests/test_jaxfacts.py checks each entry.
RETRACING_TRANSFORMS = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.jacfwd", "jax.jacrev", "jax.hessian",
    "equinox.filter_grad", "equinox.filter_value_and_grad", "equinox.filter_vmap",
    "flax.nnx.grad", "flax.nnx.value_and_grad", "flax.nnx.vmap",
})
# JAX functions imported from private or older modules -> their public names: the semantic
# model resolves imports to these, so every fact keyed by the public name applies
# (``from jax._src.custom_derivatives import closure_convert``: jax#7535).  Each pair is the
# same function (tests/test_jaxfacts.py).
# Array-API names of NumPy / jax.numpy functions -> the classic name facts are keyed by: the
# same operation, its axis keyword-only (``jnp.concat([cache, kv], axis=-2)``: llama-jax's KV
# cache).  tests/test_jaxfacts.py compares their results.
ARRAY_API_SPELLINGS = {f"{module}.concat": f"{module}.concatenate" for module in ("numpy", "jax.numpy")}
PUBLIC_SPELLINGS = {
    "jax._src.shard_map.shard_map": "jax.shard_map",
    "jax.experimental.shard_map.shard_map": "jax.shard_map",
    "jax._src.custom_derivatives.closure_convert": "jax.closure_convert",
    **ARRAY_API_SPELLINGS,
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
    means it has no such keyword.  ``chunks``: it splits into a number of parts given
    (``np.array_split``: parts differ in length by one).  Keys are qualified names; for a
    method (``ds.batch(32)``) the key is ``<module>.<Class>.<method>`` and ``receiver`` the
    modules the dataset may come from (``tf.data.Dataset.range(10)...``, ``tfds.load(...)``).
    A batch size of ``None`` or below 1 means no batching (``tfds.load(batch_size=-1)``: the
    whole split at once)."""

    drop_keyword: str
    batch_size: Param  # where the batch size (or the number of chunks) is passed
    docs: str  # the library's documentation of the keyword and its default
    receiver: tuple[str, ...] = ()
    default_batch_size: int = 0  # when it may be omitted (torch: 1, which is never ragged)
    chunks: bool = False


_TORCH_DOCS = "https://pytorch.org/docs/stable/data.html#torch.utils.data.DataLoader"
_TF_DOCS = "https://www.tensorflow.org/api_docs/python/tf/data/Dataset#batch"
_GRAIN_DOCS = "https://google-grain.readthedocs.io/en/latest/grain.dataset.html"
_GRAIN_OPERATION_DOCS = "https://google-grain.readthedocs.io/en/latest/grain.transforms.html"
_NUMPY_SPLIT_DOCS = "https://numpy.org/doc/stable/reference/generated/numpy.array_split.html"
_HF_DATASETS_DOCS = "https://huggingface.co/docs/datasets/package_reference/main_classes#datasets.Dataset.iter"
_TFDS_DOCS = "https://www.tensorflow.org/datasets/api_docs/python/tfds/load"

# Array constructors whose first argument is the shape (arange: with one argument, the length),
# so a literal there tells the array's length (``np.ones((10, 2))``: 10 rows); for numpy and
# jax.numpy alike.
SHAPED_CONSTRUCTORS = frozenset({"ones", "zeros", "empty", "full", "arange"})

# Conversions that return an array of their (array) argument's shape: ``jnp.asarray(np.arange(n))``
# is as long as ``np.arange(n)``, so a shape that changes inside changes outside.
SHAPE_KEEPING_CONVERSIONS = frozenset({"jax.numpy.asarray", "jax.numpy.array", "numpy.asarray",
                                       "numpy.array", "jax.device_put"})
# Functions whose result keeps every axis of their first argument's, in some order, maybe with
# axes of length 1 added: an array whose length changes gives a result whose shape changes
# (``jnp.expand_dims(jnp.array(tokens), axis=0)`` of a growing token list; tests/test_jaxfacts.py).
AXES_KEEPING_CALLS = frozenset(f"{module}.{name}" for module in ("numpy", "jax.numpy") for name in (
    "expand_dims", "atleast_1d", "atleast_2d", "atleast_3d", "transpose", "flip", "moveaxis", "swapaxes",
))
# Array constructors whose rank is known from the call: ``jnp.zeros((3, 4))`` (the length of the
# shape argument), ``jax.random.normal(key, (5,))`` (the second), and ranges, always one axis
# (``np.arange(10)``, ``jnp.linspace(0, 1, n)``); values.array_rank reads them.
SHAPE_ARGUMENT_CONSTRUCTORS: dict[str, int] = {
    **{f"{module}.{name}": 0 for module in ("numpy", "jax.numpy") for name in ("zeros", "ones", "empty", "full")},
    **{f"jax.random.{name}": 1 for name in ("normal", "uniform", "bernoulli", "truncated_normal")},
}
ONE_AXIS_CONSTRUCTORS = frozenset(f"{module}.{name}" for module in ("numpy", "jax.numpy")
                                  for name in ("arange", "linspace", "logspace", "geomspace"))
# jax.numpy functions whose result has at least one axis whatever their inputs (a join of
# arrays, the distinct values, a sort): never a scalar count (tests/test_jaxfacts.py).
AXIS_KEEPING_RESULTS = ONE_AXIS_CONSTRUCTORS | frozenset(
    f"jax.numpy.{name}" for name in ("concatenate", "stack", "hstack", "vstack", "unique", "sort", "atleast_1d"))
# Array methods that return an array of the receiver's shape (``points.astype(np.float32)``).
SHAPE_KEEPING_METHODS = frozenset({"astype", "copy"})
# Tensor methods of torch (and ``numpy`` of TensorFlow's eager tensors) that hand a batch to JAX
# with its shape: ``x.numpy()``, ``x.cpu().numpy()``, ``x.detach()`` (tests/test_jaxfacts.py,
# where torch is installed).
TENSOR_CONVERSION_METHODS = frozenset({"numpy", "cpu", "detach"})
# Array methods whose result has as many elements as the array: rebinding a short last batch
# with one (``x_batch = x_batch.reshape(-1, 1, 28, 28)`` under ``if x_batch.shape[0] != B``)
# leaves it short, so that ``if`` does not guard the jitted call (tests/test_jaxfacts.py).
SIZE_KEEPING_METHODS = frozenset({"reshape", "astype", "squeeze", "transpose", "flatten", "ravel", "view"})
# Array methods whose result has a numeric receiver's dtype (``sum`` of bools counts them: an
# int), and those of them that keep a boolean mask a mask (``mask.ravel()``; ``clip`` makes
# it int32, ``round`` raises).  Checked by tests/test_jaxfacts.py.
DTYPE_KEEPING_METHODS = frozenset({"max", "min", "reshape", "squeeze", "ravel", "flatten", "transpose",
                                   "clip", "round", "take", "repeat"})
MASK_KEEPING_METHODS = DTYPE_KEEPING_METHODS - {"clip", "round"}
# The spellings of the boolean dtype besides the builtin ``bool``.
BOOL_DTYPES = frozenset({"jax.numpy.bool_", "jax.numpy.bool", "numpy.bool_", "numpy.bool"})
# Calls that join a sequence of arrays whose parts share the joined result's other axes: a part
# whose shape changes changes the result's (``np.concatenate([ids, xy], axis=1)`` with ``n``
# rows of each).  qualname -> None when they always do (a new axis: ``stack``), else the
# (position, keyword) of the axis, which must be a literal >= 1: along axis 0 the parts' lengths
# add up, and a pad of ``N - n`` rows after ``n`` rows is one fixed length (the padding fix).
# Checked by tests/test_jaxfacts.py.
SHAPE_JOINING_CALLS: dict[str, Optional[Param]] = {
    **{f"{module}.stack": None for module in ("numpy", "jax.numpy")},
    **{f"{module}.column_stack": None for module in ("numpy", "jax.numpy")},
    **{f"{module}.concatenate": (1, "axis") for module in ("numpy", "jax.numpy")},
}

# Calls that hand a batch on with its leading (batch) dimension still in it: qualname -> the
# position of the batch.  ``shard`` reshapes (B, ...) to (devices, B / devices, ...): a short last
# batch stays short (tests/test_jaxfacts.py).
BATCH_KEEPING_CALLS: dict[str, int] = {"flax.training.common_utils.shard": 0, "jax.device_put": 0}

# Calls that make an index array over rows: qualname -> the position of what sets its length, a
# count ``n`` (``np.random.permutation(n)``, ``jnp.arange(n)``) or an array whose rows it orders
# (``jax.random.permutation(key, x)``).  Slicing one in batches (``idx = perm[s:s + B]``) and
# gathering with it (``x[idx]``) batches like slicing the rows (tests/test_jaxfacts.py).
ROW_INDEX_ARRAYS: dict[str, int] = {"numpy.arange": 0, "jax.numpy.arange": 0, "numpy.random.permutation": 0,
                                    "jax.random.permutation": 1, "torch.randperm": 0}

# Loaders that yield a short last batch unless asked not to (each tested against the library
# where it is installed: tests/test_jaxfacts.py).
# The number of examples in the splits of common tensorflow_datasets datasets (the catalog's
# figures): a loader batching a whole split by a size that divides it makes no short batch
# (``builder.as_dataset("test").batch(500)`` on CIFAR-100's 10,000 test images).
TFDS_SPLIT_SIZES: dict[tuple[str, str], int] = {
    **{(name, "train"): 60000 for name in ("mnist", "fashion_mnist", "kmnist")},
    **{(name, "test"): 10000 for name in ("mnist", "fashion_mnist", "kmnist", "cifar10", "cifar100")},
    ("cifar10", "train"): 50000, ("cifar100", "train"): 50000,
    ("svhn_cropped", "train"): 73257, ("svhn_cropped", "test"): 26032,
    ("imagenet2012", "train"): 1281167, ("imagenet2012", "validation"): 50000,
}
# The same for torchvision's datasets, whose ``train`` flag (the second parameter, true by
# default) picks the split: (train length, test length).  ``DataLoader(MNIST(root), 32)`` gives
# 1,875 full batches; batches of 64 leave a short last one (the signatures are tested against
# torchvision where it is installed: tests/test_jaxfacts.py).
TORCHVISION_SPLIT_SIZES: dict[str, tuple[int, int]] = {
    **{f"torchvision.datasets.{name}": (60000, 10000) for name in ("MNIST", "FashionMNIST", "KMNIST")},
    **{f"torchvision.datasets.{name}": (50000, 10000) for name in ("CIFAR10", "CIFAR100")},
}
# torch tensor constructors whose shape a call states: True where the dimensions may come as
# positional ints (``torch.randn(256, 1, 28, 28)``) as well as one size tuple
# (``torch.zeros((256, 3))``), False where only a size tuple gives them, after the bounds
# (``torch.randint(0, 10, (256,))``); ``size=`` works for all.  A ``TensorDataset`` is as long
# as its first tensor, so ``DataLoader(TensorDataset(torch.randn(256, ...)), 64)`` leaves no
# short batch.  Tested against torch where it is installed (tests/test_jaxfacts.py).
TORCH_SIZED_CONSTRUCTORS: dict[str, bool] = {
    **{f"torch.{name}": True for name in ("randn", "rand", "zeros", "ones", "empty")},
    "torch.randint": False,
}
TENSOR_DATASETS = frozenset({"torch.utils.data.TensorDataset"})
_TF_DATASETS = ("tensorflow", "tensorflow_datasets")
RAGGED_BATCHERS: dict[str, RaggedBatcher] = {
    "torch.utils.data.DataLoader": RaggedBatcher("drop_last", (1, "batch_size"), _TORCH_DOCS,
                                                 default_batch_size=1),
    # a tf.data dataset, made by tf.data or loaded by tensorflow_datasets
    "tensorflow.data.Dataset.batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _TF_DOCS,
                                                   receiver=_TF_DATASETS),
    "tensorflow.data.Dataset.padded_batch": RaggedBatcher("drop_remainder", (0, "batch_size"),
                                                          _TF_DOCS, receiver=_TF_DATASETS),
    # ``tfds.load(..., batch_size=128)`` batches with tf.data's ``batch`` and has no drop option
    "tensorflow_datasets.load": RaggedBatcher("", (-1, "batch_size"), _TFDS_DOCS),
    "grain.MapDataset.batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_DOCS,
                                            receiver=("grain",)),
    "grain.IterDataset.batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_DOCS,
                                             receiver=("grain",)),
    # Hugging Face datasets: ``load_dataset(...)["train"].iter(batch_size=128)``
    "datasets.Dataset.iter": RaggedBatcher("drop_last_batch", (0, "batch_size"), _HF_DATASETS_DOCS,
                                           receiver=("datasets",)),
    "grain.python.Batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_OPERATION_DOCS),
    "grain.transforms.Batch": RaggedBatcher("drop_remainder", (0, "batch_size"), _GRAIN_OPERATION_DOCS),
    "numpy.array_split": RaggedBatcher("", (1, "indices_or_sections"), _NUMPY_SPLIT_DOCS, chunks=True),
    "jax.numpy.array_split": RaggedBatcher("", (1, "indices_or_sections"), _NUMPY_SPLIT_DOCS, chunks=True),
}


# --- Values that must be concrete --------------------------------------------------------------
# A tracer where JAX needs a Python value (a size, a shape, an axis, a bound) raises while
# tracing.  ``error`` is the exception JAX 0.10.2 raises there, measured by tests/test_jaxfacts.py
# with a tracer at that parameter (and the call measured to work with a constant).


@dataclass(frozen=True)
class ConcreteParam:
    """A parameter that must be a concrete Python value.  ``position`` -1: keyword-only;
    ``rest``: this position and every later positional argument (``x.reshape(n, -1)``)."""

    position: int
    keyword: str
    error: str
    rest: bool = False
    flag: bool = False  # a Python bool the library branches on (``if deterministic:``)
    fix: str = ""  # the advice, where not the default (derive a size from a static shape)
    # a count, or else an array of edges that may be traced (``jnp.histogram(v, bins=edges)``):
    # only a traced count raises
    count_or_edges: bool = False


def _concrete(error: str, *params: Param, rest: bool = False, flag: bool = False,
              fix: str = "", count_or_edges: bool = False) -> tuple[ConcreteParam, ...]:
    return tuple(ConcreteParam(position, keyword, error, rest, flag, fix, count_or_edges)
                 for position, keyword in params)


_TYPE = "TypeError"
_CONCRETIZATION = "ConcretizationTypeError"
_INTEGER = "TracerIntegerConversionError"
_BOOL = "TracerBoolConversionError"
_VALUE = "ValueError"
_ARRAY = "TracerArrayConversionError"
_NUMPY_SIZE_FIX = "derive it from a static shape (x.shape[0])"
_SHAPE_0 = _concrete(_TYPE, (0, "shape"))
_SHAPE_1 = _concrete(_TYPE, (1, "shape"))
_AXIS_1 = _concrete(_CONCRETIZATION, (1, "axis"))

# qualname -> the parameters of that JAX function that must be concrete.
_RATE_FIX = ("a dropout rate is a setting flax compares in Python: pass a Python float (a module "
             "attribute or a static argument), not a traced value")
CONCRETE_PARAMS: dict[str, tuple[ConcreteParam, ...]] = {
    # array creation: shapes and sizes
    **{f"jax.numpy.{f}": _SHAPE_0 for f in ("zeros", "ones", "empty", "full")},
    **{f"jax.numpy.{f}": _concrete(_TYPE, (2, "shape")) for f in ("zeros_like", "ones_like", "empty_like")},
    "jax.numpy.full_like": _concrete(_TYPE, (3, "shape")),
    "jax.numpy.arange": _concrete(_CONCRETIZATION, (0, "start"), (1, "stop"), (2, "step")),
    **{f"jax.numpy.{f}": _concrete(_CONCRETIZATION, (2, "num")) for f in ("linspace", "logspace", "geomspace")},
    "jax.numpy.eye": _concrete(_TYPE, (0, "N"), (1, "M")),
    "jax.numpy.identity": _concrete(_TYPE, (0, "n")),
    "jax.numpy.tri": _concrete(_TYPE, (0, "N"), (1, "M")),
    **{f"jax.numpy.{f}": _concrete(_CONCRETIZATION, (0, "n")) for f in ("triu_indices", "tril_indices", "diag_indices")},
    "jax.numpy.indices": _concrete(_CONCRETIZATION, (0, "dimensions")),
    # NumPy's constructors under jit: a traced size cannot become a Python int
    # (``np.ones(shape=(a,))`` with ``a`` a jitted function's argument)
    **{f"numpy.{f}": _concrete(_INTEGER, (0, "shape"), fix=_NUMPY_SIZE_FIX) for f in ("zeros", "ones", "empty", "full")},
    "numpy.linspace": _concrete(_INTEGER, (2, "num"), fix=_NUMPY_SIZE_FIX),
    "numpy.eye": _concrete(_INTEGER, (0, "N"), (1, "M"), fix=_NUMPY_SIZE_FIX),
    "numpy.identity": _concrete(_INTEGER, (0, "n"), fix=_NUMPY_SIZE_FIX),
    # JAX's own check that a value is concrete, which libraries call before NumPy work
    # (dynamiqs' ``array_to_sparsedia``)
    "jax._src.core.concrete_or_error": _concrete(
        _CONCRETIZATION, (1, "val"), fix="pass the value from outside jit, or the argument the function "
                                         "offers to skip the check (a static one)"),
    # reshaping and padding
    "jax.numpy.reshape": _concrete(_TYPE, (1, "shape")),
    "jax.numpy.broadcast_to": _concrete(_TYPE, (1, "shape")),
    "jax.numpy.resize": _concrete(_VALUE, (1, "new_shape")),
    "jax.numpy.tile": _concrete(_TYPE, (1, "reps")),
    "jax.numpy.pad": _concrete(_CONCRETIZATION, (1, "pad_width")),  # nested widths too
    **{f"jax.numpy.{f}": _concrete(_CONCRETIZATION, (1, "indices_or_sections")) for f in ("split", "array_split")},
    "jax.numpy.histogram": _concrete(_CONCRETIZATION, (1, "bins"), count_or_edges=True),
    "jax.numpy.histogram_bin_edges": _concrete(_CONCRETIZATION, (1, "bins"), count_or_edges=True),
    "jax.numpy.bincount": _concrete(_CONCRETIZATION, (2, "minlength")),
    "jax.numpy.vander": _concrete(_VALUE, (1, "N")),
    "jax.numpy.diagflat": _concrete(_TYPE, (1, "k")),
    "jax.numpy.linalg.matrix_power": _concrete(_VALUE, (1, "n")),
    **{f"jax.numpy.fft.{f}": _concrete(_INTEGER, (1, "n")) for f in ("ifft", "rfft", "irfft")},
    "jax.numpy.polyfit": _concrete(_VALUE, (2, "deg")),
    "jax.numpy.fft.fft": _concrete(_INTEGER, (1, "n")),
    "jax.numpy.tril": _concrete(_VALUE, (1, "k")),
    "jax.numpy.triu": _concrete(_VALUE, (1, "k")),
    "jax.numpy.diag": _concrete(_INTEGER, (1, "k")),
    "jax.numpy.rot90": _concrete(_VALUE, (1, "k")),
    "jax.numpy.round": _concrete(_VALUE, (1, "decimals")),
    # axes
    **{f"jax.numpy.{f}": _AXIS_1 for f in ("sum", "mean", "max", "min", "prod", "any", "all", "std",
                                           "var", "squeeze", "expand_dims", "flip")},
    # these are jitted with `axis` static: a tracer there is an unhashable static argument
    **{f"jax.numpy.{f}": _concrete(_VALUE, (1, "axis")) for f in (
        "cumsum", "cumprod", "sort", "argsort", "median", "nansum", "nanmean")},
    **{f"jax.numpy.{f}": _concrete(_INTEGER, (1, "axis")) for f in ("concatenate", "stack", "argmax", "argmin")},
    "jax.numpy.take": _concrete(_INTEGER, (2, "axis")),
    "jax.numpy.delete": _concrete(_INTEGER, (2, "axis")),  # the indices may be traced with assume_unique_indices
    "jax.numpy.insert": _concrete(_CONCRETIZATION, (3, "axis")),
    "jax.numpy.roll": _concrete(_CONCRETIZATION, (2, "axis")),  # the shift may be traced
    "jax.numpy.moveaxis": _concrete(_CONCRETIZATION, (1, "source"), (2, "destination")),
    "jax.numpy.swapaxes": _concrete(_VALUE, (1, "axis1"), (2, "axis2")),
    "jax.numpy.transpose": _concrete(_INTEGER, (1, "axes")),
    "jax.numpy.quantile": _concrete(_VALUE, (2, "axis")),
    "jax.numpy.linalg.norm": _concrete(_VALUE, (1, "ord"), (2, "axis")),
    "jax.numpy.partition": _concrete(_VALUE, (1, "kth")),
    "jax.numpy.argpartition": _concrete(_VALUE, (1, "kth")),
    "jax.numpy.take_along_axis": _concrete(_VALUE, (2, "axis")),
    "jax.numpy.cumulative_sum": _concrete(_INTEGER, (-1, "axis")),
    "jax.numpy.diagonal": _concrete(_VALUE, (1, "offset")),
    "jax.numpy.diff": _concrete(_VALUE, (1, "n"), (2, "axis")),
    "jax.nn.one_hot": _concrete(_CONCRETIZATION, (1, "num_classes")),
    "jax.nn.softmax": _AXIS_1,
    "jax.nn.log_softmax": _concrete(_VALUE, (1, "axis")),
    "jax.scipy.special.multigammaln": _concrete(_CONCRETIZATION, (1, "d")),
    "jax.image.resize": _SHAPE_1,
    # lax: the parameters lax treats as static (jit would need static_argnums for them)
    "jax.lax.dynamic_slice": _concrete(_TYPE, (2, "slice_sizes")),
    "jax.lax.dynamic_slice_in_dim": _concrete(_INTEGER, (2, "slice_size")) + _concrete(_CONCRETIZATION, (3, "axis")),
    "jax.lax.dynamic_index_in_dim": _concrete(_VALUE, (2, "axis")),
    "jax.lax.dynamic_update_slice_in_dim": _concrete(_CONCRETIZATION, (3, "axis")),
    "jax.lax.dynamic_update_index_in_dim": _concrete(_VALUE, (3, "axis")),
    "jax.lax.slice": _concrete(_TYPE, (1, "start_indices"), (2, "limit_indices")),
    "jax.lax.slice_in_dim": _concrete(_INTEGER, (1, "start_index"), (2, "limit_index"), (4, "axis")),
    "jax.lax.index_in_dim": _concrete(_INTEGER, (1, "index")) + _concrete(_CONCRETIZATION, (2, "axis")),
    "jax.lax.broadcast": _concrete(_BOOL, (1, "sizes")),
    "jax.lax.broadcast_in_dim": _concrete(_BOOL, (1, "shape")),
    "jax.lax.reshape": _concrete(_TYPE, (1, "new_sizes")),
    "jax.lax.iota": _concrete(_TYPE, (1, "size")),
    "jax.lax.integer_pow": _concrete(_TYPE, (1, "y")),
    "jax.lax.full": _concrete(_TYPE, (0, "shape")),
    "jax.lax.pad": _concrete(_TYPE, (2, "padding_config")),
    "jax.lax.top_k": _concrete(_BOOL, (1, "k")),
    "jax.lax.expand_dims": _concrete(_TYPE, (1, "dimensions")),
    "jax.lax.squeeze": _concrete(_INTEGER, (1, "dimensions")),
    "jax.lax.transpose": _concrete(_INTEGER, (1, "permutation")),
    "jax.lax.rev": _concrete(_TYPE, (1, "dimensions")),
    "jax.lax.concatenate": _concrete(_TYPE, (1, "dimension")),
    "jax.lax.cumsum": _concrete(_CONCRETIZATION, (1, "axis")),
    # convolution geometry: converted with NumPy (jax#1453)
    "jax.lax.conv": _concrete(_ARRAY, (2, "window_strides")),
    "jax.lax.conv_general_dilated": _concrete(_ARRAY, (2, "window_strides")),
    "jax.lax.sort": _concrete(_INTEGER, (1, "dimension")),
    "jax.lax.scan": _concrete(_CONCRETIZATION, (3, "length"), (5, "unroll")),
    "jax.lax.fori_loop": _concrete(_CONCRETIZATION, (-1, "unroll")),
    "jax.lax.reduce_window": _concrete(_TYPE, (3, "window_dimensions")),
    # jax.random: the shape (bernoulli's first argument after the key is `p`, categorical's
    # `logits`, permutation's an array to shuffle: those may be traced)
    **{f"jax.random.{f}": _SHAPE_1 for f in ("normal", "uniform", "randint", "exponential",
                                             "gumbel", "laplace", "rademacher")},
    **{f"jax.random.{f}": _concrete(_TYPE, (2, "shape")) for f in ("bernoulli", "gamma", "poisson", "dirichlet")},
    **{f"jax.random.{f}": _concrete(_TYPE, (3, "shape")) for f in ("truncated_normal", "beta", "categorical")},
    "jax.random.split": _concrete(_TYPE, (1, "num")),
    "jax.random.choice": _concrete(_BOOL, (2, "shape")),
    "jax.random.orthogonal": _concrete(_CONCRETIZATION, (1, "n")),
    # flax layers branch on these flags in Python, at construction or at the call (the error
    # is raised inside flax; the user's last frame is the layer's call).  ``Q.__call__``: the
    # call of an instance (``nn.Dropout(0.1)(x, deterministic=d)``), positions after ``self``
    "flax.linen.Dropout": _concrete(_BOOL, (2, "deterministic"), flag=True) + _concrete(_BOOL, (0, "rate"), fix=_RATE_FIX),
    # ``if not deterministic and self.dropout_rate > 0.0`` (algoperf PR 886: a traced rate)
    "flax.linen.MultiHeadDotProductAttention": _concrete(_BOOL, (6, "dropout_rate"), fix=_RATE_FIX),
    "flax.linen.Dropout.__call__": _concrete(_BOOL, (1, "deterministic"), flag=True),
    "flax.linen.BatchNorm": _concrete(_BOOL, (0, "use_running_average"), flag=True),
    "flax.linen.BatchNorm.__call__": _concrete(_BOOL, (1, "use_running_average"), flag=True),
    # diffrax 0.7 checks ``max_steps`` in Python (``if max_steps is not None and max_steps < 1``,
    # the loop's buffer sizes): a traced one raises (diffrax#379)
    "diffrax.diffeqsolve": _concrete(_BOOL, (11, "max_steps"), fix=(
        "pass a Python int: mark the parameter static, or close over the value")),
    # chex's static assertions compare their arguments in Python: a traced one raises, even
    # under chex.chexify (chex#387); its value assertions are the traced-safe ones
    "chex.assert_equal": _concrete(_BOOL, (0, "first"), (1, "second"), fix=(
        "assert before the jitted call, or use a value assertion under chex.chexify "
        "(chex.assert_trees_all_equal)")),
    **{f"chex.{name}": _concrete("AssertionError", (0, "x"), fix=(
        "assert on the Python value before the jitted call, or check the traced value with "
        "jax.experimental.checkify")) for name in (
        "assert_scalar", "assert_scalar_positive", "assert_scalar_non_negative", "assert_scalar_negative",
        "assert_scalar_in")},
    # equinox reads the filter spec's leaves as Python bools (or callables) to split a pytree:
    # a traced mask raises ValueError (equinox#1036)
    **{f"equinox.{name}": _concrete(_VALUE, (1, "filter_spec"), fix=(
        "build the mask inside the function, or keep it static (equinox.filter_jit keeps "
        "Python bools static)")) for name in ("partition", "filter")},
}
# jax.Array methods: method -> its parameters that must be concrete.
CONCRETE_METHOD_PARAMS: dict[str, tuple[ConcreteParam, ...]] = {
    "reshape": _concrete(_TYPE, (0, "shape"), rest=True),  # x.reshape(n, -1) or x.reshape((n, -1))
    "transpose": _concrete(_INTEGER, (0, "axes"), rest=True),
    **{m: _concrete(_CONCRETIZATION, (0, "axis")) for m in ("sum", "mean", "max", "min", "prod",
                                                            "any", "all", "std", "var", "squeeze")},
}


def concrete_param(params: tuple[ConcreteParam, ...], position: Optional[int],
                   keyword: Optional[str]) -> Optional[ConcreteParam]:
    """The fact about the argument at ``position`` (None: passed by keyword ``keyword``)."""
    for param in params:
        if keyword is not None:
            if param.keyword == keyword:
                return param
        elif param.position >= 0 and (position == param.position or (param.rest and position > param.position)):
            return param
    return None


# --- Calls that trace the functions given to them ---------------------------------------------
# Outside jit too, these run (or return a function that runs) the functions at ``functions`` on
# tracers: ``jax.vmap(f)(xs)`` at module level traces ``f``, so a Python ``if`` on its argument
# raises as it would under jit.  Measured by tests/test_jaxfacts.py, called eagerly.


@dataclass(frozen=True)
class TracingCall:
    """``abstract``: the tracers have no value (``bool()``, ``int()``, shapes from them raise);
    else they carry it (``jax.grad``: only a conversion to a NumPy array raises, unless an outer
    jit traces the call).  ``wraps``: the call returns the transformed function, whose call
    passes the arguments (``jax.vmap(f)(xs)``); else the call itself runs the function with every
    parameter traced, except the parameter ``optional_inputs`` ties to an argument of the call
    that is left out or None (``lax.scan(f, init, None, length=n)``: ``f``'s ``x`` is None).
    Of a wrapped function, the parameters that get tracers: those ``in_axes`` does not map to
    None (all when it is left out), or those ``argnums`` names (the first when left out).
    ``given``: the positions of the parameters that get tracers when not all do (a library
    that runs the function later, under its own jit: ``()`` for a numpyro model, whose
    arguments stay the caller's values while its body is traced; ``(0,)`` for a log density
    whose other parameters the library does not fill).  A list or tuple
    display at a function slot is a list of functions, each traced (``lax.switch``'s branches).
    ``keywords_take_axes``: the keyword arguments of a call of the wrapped function need
    ``in_axes`` entries too (``nnx.vmap`` binds them to their positions first); else only the
    positional ones do (``jax.vmap`` maps keyword arguments over axis 0)."""

    functions: tuple[Param, ...]
    abstract: bool = True
    wraps: bool = False
    optional_inputs: tuple[tuple[Param, int], ...] = ()
    in_axes: Optional[Param] = None
    argnums: Optional[Param] = None
    given: Optional[tuple[int, ...]] = None
    keywords_take_axes: bool = False
    # a call that runs the function at once: its positional arguments from this index are the
    # function's (``jax.vjp(f, x, y)``), or they are the elements of the tuple at this index
    # (``jax.jvp(f, (x, y), tangents)``)
    arguments_from: Optional[int] = None
    arguments_in: Optional[int] = None


_DIFFERENTIATE = TracingCall(((0, "fun"),), abstract=False, wraps=True, argnums=(1, "argnums"))
# forward- and reverse-mode transforms that run the function at once on tracers carrying values
# (``jax.vjp(f, a, b)``; ``jax.jvp(f, (a, b), ...)``: the primals tuple holds every positional argument)
_EVALUATE_DIFFERENTIATED = TracingCall(((0, "fun"),), abstract=False, arguments_from=1)
# numpyro's inference objects run the model (and guide) under their own jit (MCMC.run, SVI.run,
# Predictive's call): the body is traced, the arguments stay as passed (jit_model_args=False)
_PROBABILISTIC_MODEL = TracingCall(((0, "model"),), given=())
# Conversions that raise also on a tracer that carries its value (``jax.grad``'s): a value being
# differentiated may not leave the trace as a Python float (``bool``, ``int`` and ``.item()``
# work there), nor as a NumPy array (every NUMPY_CONVERTING_FUNCTIONS entry); nor can it answer
# placement and buffer queries (``devices()``: measured, like under jit).
DIFFERENTIATED_VALUE_CONVERSIONS = frozenset({"float", "complex", "tolist", "devices", "unsafe_buffer_pointer",
                                              "on_device_size_in_bytes", "is_deleted", "block_until_ready"})
TRACING_CALLS: dict[str, TracingCall] = {
    "jax.vmap": TracingCall(((0, "fun"),), wraps=True, in_axes=(1, "in_axes")),
    "jax.lax.scan": TracingCall(((0, "f"),), optional_inputs=(((2, "xs"), 1),)),
    "jax.lax.fori_loop": TracingCall(((2, "body_fun"),)),
    "jax.lax.while_loop": TracingCall(((0, "cond_fun"), (1, "body_fun"))),
    "jax.lax.cond": TracingCall(((1, "true_fun"), (2, "false_fun"))),
    "jax.lax.switch": TracingCall(((1, "branches"),)),
    "jax.lax.map": TracingCall(((0, "f"),)),
    **{f"jax.{name}": _DIFFERENTIATE for name in ("grad", "value_and_grad", "jacfwd", "jacrev",
                                                  "hessian")},
    **{f"jax.{name}": _EVALUATE_DIFFERENTIATED for name in ("linearize", "vjp")},
    "jax.jvp": TracingCall(((0, "fun"),), abstract=False, arguments_in=1),
    **{f"jax.{name}": TracingCall(((0, "fun"),), wraps=True) for name in ("checkpoint", "remat",
                                                                           "make_jaxpr")},
    "jax.pmap": TracingCall(((0, "fun"),), wraps=True, in_axes=(2, "in_axes")),
    "flax.nnx.vmap": TracingCall(((0, "f"),), wraps=True, in_axes=(1, "in_axes"), keywords_take_axes=True),
    "jax.eval_shape": TracingCall(((0, "fun"),)),
    # traces ``fun`` to a jaxpr with the example arguments, abstractly (custom_vjp helpers)
    "jax.closure_convert": TracingCall(((0, "fun"),)),
    "jax.lax.custom_root": TracingCall(((0, "f"),)),
    "jax.lax.custom_linear_solve": TracingCall(((0, "matvec"),)),
    "jax.scipy.optimize.minimize": TracingCall(((0, "fun"),)),
    # libraries that trace a function they are given when their run, step or solve runs
    **{f"numpyro.infer.{name}": _PROBABILISTIC_MODEL for name in ("NUTS", "HMC", "Predictive")},
    "numpyro.infer.SVI": TracingCall(((0, "model"), (1, "guide")), given=()),
    **{f"blackjax.{name}": TracingCall(((0, "logdensity_fn"),), given=(0,)) for name in ("nuts", "hmc")},
    # jaxopt's solvers differentiate ``fun`` under their own jit (the SciPy wrappers too, before
    # handing values to SciPy), so ``run(init, *args)`` traces it with every argument
    **{f"jaxopt.{name}": TracingCall(((0, "fun"),)) for name in ("LBFGS", "BFGS", "GradientDescent",
                                                                "NonlinearCG", "LBFGSB", "ArmijoSGD",
                                                                "PolyakSGD")},
    **{f"jaxopt.{name}": TracingCall(((0, "residual_fun"),)) for name in ("LevenbergMarquardt", "GaussNewton")},
    **{f"jaxopt.{name}": TracingCall(((5, "fun"),)) for name in ("ScipyMinimize", "ScipyBoundedMinimize")},
    "diffrax.ODETerm": TracingCall(((0, "vector_field"),), given=(0, 1)),
    # ``self.param(name, init_fn, *shape_args)`` in a linen Module: ``apply`` checks the stored
    # parameter's shape with ``jax.eval_shape(lambda: init_fn(key, *args))``, so the
    # initializer runs traced, its key traced and the arguments as passed (flax#1077)
    "flax.linen.Module.param": TracingCall(((1, "init_fn"),), given=(0,)),
}


# --- Library calls that turn a function into an object whose methods run it --------------------
# ``net = hk.transform(forward)``: ``net.apply(params, rng, x)`` runs ``forward(x)``, so under
# ``jax.jit(net.apply)`` or inside a jitted loss ``forward``'s parameters are traced, as the
# arguments after the method's own leading ones are.  Method name -> how many leading arguments
# it takes before the function's.  tests/test_jaxfacts.py calls each method of the real object.
FUNCTION_TRANSFORMS: dict[str, dict[str, int]] = {
    "haiku.transform": {"init": 1, "apply": 2},
    "haiku.transform_with_state": {"init": 1, "apply": 3},
}
# Wrappers of such an object whose method takes fewer leading arguments (no ``rng``): method
# name -> how many fewer.
FUNCTION_TRANSFORM_WRAPPERS: dict[str, dict[str, int]] = {
    "haiku.without_apply_rng": {"apply": 1},
}


# --- Functions mapped over the leaves of pytrees ---------------------------------------------------
# ``jax.tree.map(f, params)`` calls ``f`` on each leaf: in traced code a traced tree gives ``f``
# tracers (``lambda p: p if p.sum() > 0 else -p`` raises).  qualname -> (the function's slot,
# the position of the first tree, the function's parameter the first tree's leaves reach);
# tests/test_jaxfacts.py runs each under jit.
TREE_MAPS: dict[str, tuple[Param, int, int]] = {
    "jax.tree_util.tree_map": ((0, "f"), 1, 0),
    "jax.tree.map": ((0, "f"), 1, 0),
    "jax.tree_util.tree_map_with_path": ((0, "f"), 1, 1),  # f(path, leaf, ...)
    "jax.tree.map_with_path": ((0, "f"), 1, 1),
}


# --- Library calls whose result is traced inside a traced function ----------------------------
# Not jax.numpy, yet what they return in a traced body is a tracer (a numpyro sample site under
# NUTS / SVI / Predictive: ``if s > 0``, ``int(s)``, ``np.exp(s)`` raise).  Measured by
# tests/test_jaxfacts.py in a NUTS model.


@dataclass(frozen=True)
class TracedResult:
    """``passes``: the call returns this argument (traced when it is: ``numpyro.deterministic``);
    ``observed``: given, the call returns that argument instead (``obs=``: the data, often a
    NumPy array, stays concrete)."""

    passes: Optional[Param] = None
    observed: Optional[Param] = None


TRACED_RESULT_CALLS: dict[str, TracedResult] = {
    "numpyro.sample": TracedResult(observed=(2, "obs")),
    "numpyro.deterministic": TracedResult(passes=(1, "value")),
    # measured and left out: ``numpyro.param`` is its concrete initial value under NUTS (only
    # SVI, which optimises it, passes a tracer)
}

# --- Python operations that force a concrete value ---------------------------------------------
# builtin of one argument -> what a tracer there raises (int(x), bool(x), hex(x), ...).
PYTHON_VALUE_BUILTINS: dict[str, str] = {
    "int": _CONCRETIZATION, "float": _CONCRETIZATION, "complex": _CONCRETIZATION, "bool": _BOOL,
    "hex": _INTEGER, "oct": _INTEGER, "bin": _INTEGER, "chr": _INTEGER,
}
# builtins every argument of which must be concrete
PYTHON_BOUND_BUILTINS: dict[str, str] = {"range": _INTEGER}
# builtins that compare their arguments with Python's ``<`` and take its truth value:
# ``max(loss, 0.0)`` on a tracer (two or more arguments, or one list or tuple display of them)
PYTHON_COMPARING_BUILTINS: dict[str, str] = {"max": _BOOL, "min": _BOOL, "sorted": _BOOL}
# builtins that take the truth value of each element: ``any([x > 0, y > 0])``, ``all(mask)``
PYTHON_TRUTH_BUILTINS: dict[str, tuple[str, str]] = {"any": (_BOOL, "jax.numpy.any"),
                                                      "all": (_BOOL, "jax.numpy.all")}
# Functions of Python's standard library that make Python numbers of their arguments
# (``math.sqrt(x)`` calls ``float(x)``; ``operator.index`` calls ``__index__``) or compare them
# with ``<`` (``bisect``): every traced argument raises.  qualname -> (error, the jax function
# to use instead, "" for none).  tests/test_jaxfacts.py runs each under jit, and its replacement.
_MATH_AS_JNP = ("sqrt", "exp", "log", "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "tanh",
                "sinh", "cosh", "floor", "ceil", "isnan", "isinf", "isfinite", "isclose",
                "degrees", "radians", "hypot", "copysign", "fmod", "cbrt", "exp2")
PYTHON_CONVERTING_FUNCTIONS: dict[str, tuple[str, str]] = {
    **{f"math.{name}": (_CONCRETIZATION, f"jax.numpy.{name}") for name in _MATH_AS_JNP},
    **{f"math.{name}": (_CONCRETIZATION, f"jax.numpy.arc{name[1:]}") for name in ("asin", "acos", "atan", "atan2")},
    "math.fabs": (_CONCRETIZATION, "jax.numpy.abs"),
    "math.trunc": ("TypeError", "jax.numpy.trunc"),  # a tracer has no ``__trunc__``
    "math.pow": (_CONCRETIZATION, "jax.numpy.power"),
    "math.erf": (_CONCRETIZATION, "jax.scipy.special.erf"),
    "math.erfc": (_CONCRETIZATION, "jax.scipy.special.erfc"),
    "math.lgamma": (_CONCRETIZATION, "jax.scipy.special.gammaln"),
    "math.gamma": (_CONCRETIZATION, "jax.scipy.special.gamma"),
    "operator.index": (_INTEGER, ""),
    **{f"bisect.{name}": (_BOOL, "jax.numpy.searchsorted") for name in ("bisect", "bisect_left", "bisect_right")},
}
# jax.Array methods that return Python values
PYTHON_VALUE_METHODS: dict[str, str] = {
    "item": _CONCRETIZATION, "tolist": _CONCRETIZATION,
    # placement and buffer queries of a concrete array (jax#26000: ``x.devices()`` under jit)
    "devices": _CONCRETIZATION, "unsafe_buffer_pointer": _CONCRETIZATION,
    "on_device_size_in_bytes": _CONCRETIZATION, "is_deleted": _CONCRETIZATION,
    "block_until_ready": "AttributeError",
}
# jax.Array attributes a tracer does not have, or cannot give (``x.device`` under jit)
PYTHON_VALUE_ATTRIBUTES: dict[str, str] = {
    "device": "AttributeError", "sharding": "AttributeError", "addressable_shards": _CONCRETIZATION,
    "is_fully_addressable": _CONCRETIZATION, "committed": _CONCRETIZATION, "global_shards": _CONCRETIZATION,
}
# syntax: a truth test (`if`, `while`, `and`, `or`, `not`), a Python slice bound (`x[:n]`), an
# index into a Python list or tuple, the count a list or tuple is repeated by (`[x] * n`), a
# format spec (`f"{x:.2f}"`, `"{:.2f}".format(x)`, `format(x, ".2f")`: a tracer's __format__
# takes none) and a numeric %-conversion (`"%.2f" % x` calls float() on it)
PYTHON_VALUE_SYNTAX: dict[str, str] = {"truth test": _BOOL, "slice bound": "IndexError",
                                       "sequence index": _INTEGER, "sequence repeat": "TypeError",
                                       "format spec": "TypeError", "numeric %-format": _CONCRETIZATION}

# jax.numpy functions that read a list or tuple argument with NumPy (``jnp.ndim([x, y])``):
# with a tracer among its items they raise TracerArrayConversionError under jit (a jax.Array
# argument works; jax 0.10.2 warns that a sequence will be an error).
SEQUENCE_CONVERTING_FUNCTIONS = frozenset({"jax.numpy.ndim", "jax.numpy.shape", "jax.numpy.size"})

# the jax namespaces whose functions compute arrays from array arguments: on traced operands
# they give tracers; their positional arguments are array operands
JAX_ARRAY_NAMESPACES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.", "jax.random.")
# Base classes of modules whose ``apply(variables, *args)`` / ``init(key, *args)`` run
# ``__call__(*args)``: once per such call, eagerly when the call is eager (flax#2887).
APPLIED_MODULE_BASES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
# The methods of such a module that run its ``__call__``.
APPLYING_METHODS = frozenset({"apply", "init", "init_with_output"})
# Library functions built of JAX operations, staged like jax.numpy's: under a staging trace their
# result is a tracer even for concrete arguments (``eqx.error_if(x, x < 0, msg)`` returns ``x``
# through a staged check: dynamiqs PR 1015, ``tsave.tolist()`` after it raises under jit).
# tests/test_jaxfacts.py calls each on a constant under jax.jit.
STAGED_LIBRARY_FUNCTIONS = frozenset({"equinox.error_if", "equinox.branched_error_if"})
# Calls whose arguments are random seeds: a seed picks the numbers drawn, never the shape or
# dtype of what is made from it, so a loop over seeds (``for seed in (0, 1, 2): run(seed)``)
# repeats one program with new data, not a sweep of configurations (_context).
# tests/test_jaxfacts.py calls each with two seeds and compares what comes out.
SEEDING_CALLS = frozenset({
    "jax.random.PRNGKey", "jax.random.key", "numpy.random.default_rng", "numpy.random.seed",
    "numpy.random.RandomState", "random.seed", "random.Random", "haiku.PRNGSequence",
    "flax.nnx.Rngs", "torch.manual_seed",
})
# jax.random functions named like classes that return a jax Array (a legacy uint32 key):
# unhashable as a static argument (nerf-jax's sample_pdf, tests/test_jaxfacts.py).
ARRAY_RETURNING_KEY_FUNCTIONS = frozenset({"jax.random.PRNGKey"})
# Functions that return the array module of their array arguments (the array API standard's
# ``__array_namespace__``): given a jax array or a tracer, ``jax.numpy`` itself, so under a trace
# ``xp = array_namespace(x); n = int(xp.sum(mask))`` converts a tracer (deepmd-kit PR 4775).
# tests/test_jaxfacts.py calls each on a tracer under jax.jit.
ARRAY_NAMESPACE_GETTERS = frozenset({"array_api_compat.array_namespace", "array_api_compat.get_namespace"})

# methods a dataclass-style class runs after filling its fields (``dataclasses``' and
# ``flax.struct``'s ``__post_init__``, equinox's ``__check_init__``): building an instance
# from traced values inside a trace runs them on traced fields
VALIDATION_HOOKS = ("__post_init__", "__check_init__")

# jax.numpy functions that hand a NumPy array argument back as a NumPy array (jax 0.10.2:
# ``jnp.reshape`` calls the array's own ``reshape``; transpose, ravel, squeeze, swapaxes,
# moveaxis, expand_dims and flip return jax arrays): indexing the result with a tracer raises
# TracerArrayConversionError (jax#3391)
NUMPY_KEEPING_JNP_FUNCTIONS = frozenset({"jax.numpy.reshape"})

# numpy functions that convert their argument to a numpy array: on a tracer they raise
# TracerArrayConversionError (argsort a TypeError).  Not here: np.sum/mean/max/min/reshape/
# transpose/squeeze/round/searchsorted/..., which call the jax.Array's own method and work.
NUMPY_CONVERTING_FUNCTIONS: dict[str, str] = {
    **{f"numpy.{name}": "TracerArrayConversionError" for name in (
        "array", "asarray", "asanyarray", "ascontiguousarray", "copy", "ravel", "zeros_like",
        "ones_like", "empty_like", "full_like", "where", "clip", "concatenate", "stack", "vstack",
        "hstack", "dstack", "column_stack", "allclose", "isclose", "dot", "matmul", "vdot",
        "inner", "outer", "einsum", "tensordot", "kron", "cross", "sort", "unique", "diff",
        "tile", "pad", "atleast_1d", "atleast_2d", "atleast_3d", "expand_dims", "interp",
        "convolve", "histogram", "nan_to_num", "float16", "float32", "float64", "int8", "int16",
        "int32", "int64", "uint8", "uint32", "bool_", "complex64", "complex128",
        # ufuncs: none of them accept a tracer
        "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "square", "abs",
        "absolute", "fabs", "sign", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2",
        "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc", "rint",
        "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power", "mod",
        "remainder", "maximum", "minimum", "fmax", "fmin", "isnan", "isinf", "isfinite",
        "logical_and", "logical_or", "logical_not", "logical_xor", "equal", "not_equal", "less",
        "less_equal", "greater", "greater_equal", "negative", "reciprocal", "hypot", "logaddexp",
        "deg2rad", "rad2deg", "degrees", "radians", "heaviside", "signbit", "conj", "conjugate",
        "float_power", "fmod", "sinc", "i0", "angle", "iscomplex", "real_if_close",
        # statistics, selections and set operations that convert first
        "count_nonzero", "nonzero", "argwhere", "flatnonzero", "median", "percentile", "quantile",
        "nanmean", "nansum", "nanmax", "nanmin", "nanstd", "nanvar", "nanargmax", "nancumsum",
        "average", "ptp", "cov", "corrcoef", "diag", "triu", "tril", "roll", "digitize", "isin",
        "append", "insert", "delete", "sort_complex", "trim_zeros", "unwrap", "gradient",
        "ediff1d", "meshgrid", "polyval", "polyfit", "flipud", "broadcast_to", "partition",
        "argpartition", "arange",
        "poly", "roots", "polyder", "polyint", "polymul", "polyadd", "linspace", "trapezoid",
        "bincount", "lexsort", "vander", "histogram2d",
    )},
    "numpy.argsort": _TYPE,
}
# numpy functions that, given a tracer, call the jax.Array's own method (``np.sum(x)`` is
# ``x.sum()``): they work under jit and return a tracer.
# Methods of a jax.Array that return a jax.Array (``x.at[i].set(v)`` included): traced in traced
# code, and unhashable like the array (a reduction too: ``x.mean()`` is a 0-d Array)
ARRAY_METHODS = frozenset({
    "sum", "mean", "max", "min", "prod", "any", "all", "argmax", "argmin", "astype", "reshape",
    "transpose", "squeeze", "ravel", "flatten", "dot", "clip", "round", "cumsum", "cumprod", "std",
    "var", "conj", "conjugate", "take", "sort", "argsort", "swapaxes", "repeat", "view", "trace",
    "diagonal", "ptp", "nonzero", "searchsorted", "choose", "compress",
    "set", "add", "multiply", "divide", "power", "get", "apply",  # x.at[i].<op>(v)
})
# Methods of a probability distribution object (numpyro, distrax, TFP substrates.jax) that
# return arrays: a distribution a traced ``apply`` returned gives tracers through them
# (``policy.sample(seed=key)``; measured on numpyro, which implements no ``mode``).
DISTRIBUTION_METHODS = frozenset({
    "sample", "mean", "variance", "log_prob", "entropy", "cdf", "icdf",
})
NUMPY_ARRAY_METHOD_FUNCTIONS = frozenset(f"numpy.{name}" for name in (
    "sum", "mean", "max", "min", "amax", "amin", "prod", "any", "all", "std", "var", "reshape",
    "transpose", "squeeze", "round", "around", "argmax", "argmin", "cumsum", "cumprod", "repeat",
    "swapaxes",
))
# every function of these modules converts its argument to a NumPy array (SciPy's: measured for
# optimize.minimize, special.expit / logsumexp / gammaln, linalg.norm, stats.norm.pdf,
# signal.convolve, integrate.trapezoid; a class such as ``scipy.stats.Normal`` is not judged)
NUMPY_CONVERTING_SUBMODULES: dict[str, str] = {"numpy.linalg.": "TracerArrayConversionError",
                                               "numpy.fft.": "TracerArrayConversionError",
                                               # measured: polyfromroots, polyval, polyder, polymul,
                                               # polyroots, chebval, legval, hermval
                                               "numpy.polynomial.": "TracerArrayConversionError",
                                               "scipy.": "TracerArrayConversionError"}
# NumPy modules jax.numpy does not mirror (``jax.numpy.polynomial`` does not exist): what to use
# instead of ``jax.<qualname>``
NUMPY_MODULES_WITHOUT_JAX_TWIN: dict[str, str] = {
    "numpy.polynomial.": "jax.numpy has no `polynomial` module: use jax.numpy.poly / polyval / polyder "
                         "(coefficients highest degree first), or call it outside jit",
}
# With this environment variable set (the module sets it before importing SciPy), SciPy
# dispatches on the array's namespace: the functions of scipy_array_api.JAX_JIT_FUNCTIONS then
# run on JAX arrays under jit (scipy.stats.tmean); the rest still convert with NumPy.
SCIPY_ARRAY_API_SWITCH = "SCIPY_ARRAY_API"
SCIPY_JAX_JIT_FUNCTIONS = scipy_array_api.JAX_JIT_FUNCTIONS

@dataclass(frozen=True)
class UnfunctionalizedCall:
    """A call that raises whenever a jit, pmap or lax control-flow trace stages it (vmap, grad
    and eval_shape alone do not), unless the staged function is wrapped by ``functionalized_by``
    (outside the jit or inside it): ``error`` is what the first call raises."""

    error: str
    functionalized_by: str
    fix: str


# jax 0.10.2 (measured in tests/test_jaxfacts.py): "Cannot abstractly evaluate a checkify.check
# which was not functionalized", for a traced and a constant predicate alike
UNFUNCTIONALIZED_CALLS: dict[str, UnfunctionalizedCall] = {
    "jax.experimental.checkify.check": UnfunctionalizedCall(
        "ValueError", "jax.experimental.checkify.checkify",
        "functionalize the function that stages it: `err, out = checkify.checkify(f)(...)`, "
        "then `err.throw()` (or use equinox.error_if, which needs no wrapper)"),
}

# NNX layers whose call updates their own state (the RNG stream's count, the running statistics)
# unless built with the keyword that turns the update off (or ``.eval()`` was called on them or a
# module holding them).  Called inside a jit that closes over them, the update raises
# TraceContextError at the first call (flax 0.12.8, under jax.jit and nnx.jit alike; flax#4539).
NNX_SELF_UPDATING_LAYERS: dict[str, str] = {
    "flax.nnx.Dropout": "deterministic",
    "flax.nnx.BatchNorm": "use_running_average",
}
# methods that switch those updates off for an object and the layers it holds
NNX_UPDATE_SWITCHES = frozenset({"eval", "set_attributes"})

# NNX transforms that split the graph of the NNX objects handed to them.  Inside a jit (nnx.jit
# or jax.jit) whose function reads the module from outside (a global, an enclosing function's,
# ``self.model`` of the method it is defined in), the module belongs to no trace level of the
# jit, and the transform raises at the first call with this error (flax 0.12.8): the module must
# be an argument of the jitted function.  tests/test_jaxfacts.py checks each entry.
NNX_GRAPH_TRANSFORMS: dict[str, str] = {
    "flax.nnx.grad": "ValueError",
    "flax.nnx.value_and_grad": "ValueError",
    "flax.nnx.vmap": "ValueError",
    "flax.nnx.remat": "TraceContextError",
    "flax.nnx.jit": "TraceContextError",
}

# NNX modes: ``Module.eval()`` / ``Module.train()`` set these attributes on every layer a module
# holds (flax 0.12.8: ``set_attributes(deterministic=..., use_running_average=...)``).  They are
# static, part of the graph definition nnx.jit keys its cache on, and a switch made inside
# nnx.jit persists after the call (tests/test_jaxfacts.py measures both for each layer).
NNX_MODE_LAYERS: dict[str, str] = {
    "flax.nnx.Dropout": "deterministic",
    "flax.nnx.BatchNorm": "use_running_average",
    "flax.nnx.MultiHeadAttention": "deterministic",
}
# the mode methods -> the value they give those attributes
NNX_MODE_SWITCHES: dict[str, bool] = {"eval": True, "train": False}

# methods of library objects that hand their arguments to NumPy (jaxopt's SciPy wrappers run
# scipy.optimize on host arrays): on a tracer (under jit, vmap or lax.scan) they raise
# TracerArrayConversionError.  The class -> (the method, the advice: a solver that runs in JAX).
NUMPY_CONVERTING_METHODS: dict[str, tuple[str, str]] = {
    "jaxopt.ScipyMinimize": ("run", "use jaxopt.LBFGS (or BFGS), which runs in JAX"),
    "jaxopt.ScipyBoundedMinimize": ("run", "use jaxopt.LBFGSB, which runs in JAX"),
    "jaxopt.ScipyRootFinding": ("run", "use jaxopt.Broyden (or Bisection), which runs in JAX"),
    "jaxopt.ScipyLeastSquares": ("run", "use jaxopt.LevenbergMarquardt (or GaussNewton), which runs in JAX"),
    "jaxopt.ScipyBoundedLeastSquares": ("run", "call it outside jit, on concrete arrays"),
}


# --- Library calls that run lax control flow inside ----------------------------------------------
# Run outside jit, each of these traces the lax loop (or cond) over functions it creates anew, so
# every eager call compiles again; inside one jitted step they compile once.  Measured by
# tests/test_jaxfacts.py (jax 0.10.2, optax 0.2.8, blackjax 1.7.1, CPU): ``compiles_per_call`` compiles on every
# eager call after the first.


@dataclass(frozen=True)
class LaxLoopCall:
    """``method`` "": the call itself runs ``runs``; else the method of the object the call
    builds (``optax.lbfgs().update``; ``__call__``: calling that object).  ``when``: the
    keyword arguments (name, value as written) the building call must pass for it to hold;
    ``fix``: the advice, where jitting the step is not it."""

    runs: str
    compiles_per_call: int
    method: str = ""
    when: tuple[tuple[str, str], ...] = ()
    fix: str = ""
    # it holds without ``when`` too, where the building call does not pass this keyword (name,
    # value as written) and the loop's call hands the method data made anew on each iteration
    fresh_data_unless: tuple[str, str] = ()
    fresh_data_fix: str = ""


LAX_LOOP_LIBRARY_CALLS: dict[str, LaxLoopCall] = {
    "optax.lbfgs": LaxLoopCall("a zoom line search (lax.while_loop) and lax.scan", 3, "update"),
    "optax.scale_by_lbfgs": LaxLoopCall("lax.scan", 2, "update"),
    "optax.scale_by_zoom_linesearch": LaxLoopCall("a zoom line search (lax.while_loop)", 1, "update"),
    "optax.scale_by_backtracking_linesearch": LaxLoopCall("a backtracking line search (lax.while_loop)",
                                                          1, "update"),
    "optax.MultiSteps": LaxLoopCall("lax.cond", 1, "update"),
    "optax.apply_if_finite": LaxLoopCall("lax.cond", 1, "update"),
    "optax.contrib.reduce_on_plateau": LaxLoopCall("lax.cond", 1, "update"),
    # the function it returns: each call picks the stored or a new gradient with lax.cond
    "optax.value_and_grad_from_state": LaxLoopCall("lax.cond", 1, "__call__"),
    # jaxopt 0.8: an iterative solver's ``run`` stages its iterations with a while loop whose
    # body closures are new on every run (jaxopt#563); the stochastic solvers have no loop
    **{f"jaxopt.{name}": LaxLoopCall("the solver's iterations (lax.while_loop)", 1, "run") for name in (
        "LBFGS", "GradientDescent", "BFGS", "NonlinearCG", "GaussNewton", "LevenbergMarquardt")},
    # flax 0.12: NNX's cond and switch wrap each branch in a new object on every call, so an
    # eager call with the same module-level branches compiles again (flax#5512)
    "flax.nnx.cond": LaxLoopCall("lax.cond over branch wrappers made anew on every call", 1),
    "flax.nnx.switch": LaxLoopCall("lax.switch over branch wrappers made anew on every call", 1),
    # jax 0.10: lax.map wraps ``f`` in a new function on every call, so an eager call compiles
    # its scan again even for a module-level ``f`` (lax.scan with that ``f`` would reuse it)
    "jax.lax.map": LaxLoopCall("lax.scan over a wrapper of `f` made anew on every call", 1),
    "jax.scipy.optimize.minimize": LaxLoopCall("lax.while_loop", 1),
    "jax.scipy.sparse.linalg.cg": LaxLoopCall("lax.while_loop", 1),
    "jax.scipy.sparse.linalg.gmres": LaxLoopCall("lax.while_loop", 1),
    "jax.scipy.sparse.linalg.bicgstab": LaxLoopCall("lax.while_loop", 1),
    # blackjax 1.7.1: a sampling algorithm's ``step`` (and the kernel ``build_kernel()``
    # returns) builds its integrator and proposal closures on every call
    "blackjax.nuts": LaxLoopCall("NUTS's trajectory building (lax.while_loop)", 1, "step"),
    "blackjax.nuts.build_kernel": LaxLoopCall("NUTS's trajectory building (lax.while_loop)", 1,
                                              "__call__"),
    "blackjax.mcmc.nuts.build_kernel": LaxLoopCall("NUTS's trajectory building (lax.while_loop)",
                                                   1, "__call__"),
    "blackjax.hmc": LaxLoopCall("the leapfrog steps (lax.scan) and the acceptance (lax.cond)", 2,
                                "step"),
    "blackjax.hmc.build_kernel": LaxLoopCall(
        "the leapfrog steps (lax.scan) and the acceptance (lax.cond)", 2, "__call__"),
    "blackjax.mcmc.hmc.build_kernel": LaxLoopCall(
        "the leapfrog steps (lax.scan) and the acceptance (lax.cond)", 2, "__call__"),
    "blackjax.mala": LaxLoopCall("the Metropolis-Hastings acceptance (lax.cond)", 1, "step"),
    "blackjax.rmh": LaxLoopCall("the Metropolis-Hastings acceptance (lax.cond)", 1, "step"),
    "blackjax.additive_step_random_walk": LaxLoopCall(
        "the Metropolis-Hastings acceptance (lax.cond)", 1, "step"),
    # numpyro 0.22: without a progress bar ``fori_collect`` jits a loop closure made anew on
    # every ``run`` (numpyro#2171), whatever the arguments; with it and jit_model_args=True,
    # later runs reuse the compiled sampler (measured; without jit_model_args a run on new
    # data arrays compiles its body again).  numpyro also turns the bar off by itself where the
    # environment has CI or PYTEST_XDIST_WORKER.
    "numpyro.infer.MCMC": LaxLoopCall("the sampling loop (jit of a lax.fori_loop over a new closure)", 1, "run",
                                      when=(("progress_bar", "False"),),
                                      fix="drop progress_bar=False and pass jit_model_args=True: later runs "
                                          "then reuse the compiled sampler (except where CI is set: numpyro "
                                          "turns the progress bar off there)",
                                      fresh_data_unless=("jit_model_args", "True"),
                                      fresh_data_fix="pass jit_model_args=True to MCMC (and build the MCMC once, "
                                                     "before the loop): the data then becomes a traced argument "
                                                     "of one compiled sampler"),
}
# optax optimizers whose learning rate may be a schedule (a function of the step count): their
# ``update`` calls it with the count kept in the optimizer state, a traced array whenever the
# update runs under jit (netket#908: ``np.cos`` of it raises TracerArrayConversionError).
# qualname -> where the schedule is passed.  tests/test_jaxfacts.py checks each call is traced.
SCHEDULE_PARAMS: dict[str, Param] = {
    **{f"optax.{name}": (0, "learning_rate") for name in (
        "sgd", "adam", "adamw", "rmsprop", "adagrad", "lamb", "lion", "adabelief", "nadam",
        "radam", "novograd", "adamax", "fromage", "yogi", "noisy_sgd", "adafactor", "lars",
        "amsgrad", "adan", "sign_sgd")},
    "optax.scale_by_schedule": (0, "step_size_fn"),
}

# optax combinators whose ``update`` runs their members' updates (``optax.chain(sgd, linesearch)``)
OPTAX_COMBINATORS = frozenset({"optax.chain", "optax.named_chain"})


# --- Pytree registrations ------------------------------------------------------------------------
# Calls that make the class given as their first argument a pytree (``register_pytree_node(C,
# flatten, unflatten)``): its instances are valid jit arguments, ``self`` of a jitted method too.
PYTREE_REGISTRATIONS = frozenset(f"jax.tree_util.{name}" for name in (
    "register_pytree_node", "register_pytree_with_keys", "register_pytree_node_class",
    "register_dataclass", "register_static",
))


# --- Values jit cannot take at a traced position -------------------------------------------------
# jax.jit abstracts every non-static argument to an array: a leaf that is not an array, a Python
# scalar or None (a str, a class object, a function, a plain object) raises TypeError "Error
# interpreting argument to <f> as an abstract array" at the call.  Library constructors whose
# result is a pytree holding such a leaf: qualname -> the leaf (tests/test_jaxfacts.py: jax.jit
# raises, eqx.filter_jit, which keeps non-array leaves static, does not).
NON_ARRAY_LEAF_OBJECTS: dict[str, str] = {
    "equinox.nn.Lambda": "its `fn` field, a Python function, is a pytree leaf",
    "equinox.nn.MLP": "its `activation` and `final_activation` fields, functions, are pytree leaves",
    **{f"equinox.nn.{pool}": "its `operation` field, the reduction function, is a pytree leaf"
       for pool in ("Pool", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
                    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "AdaptiveAvgPool1d",
                    "AdaptiveAvgPool2d", "AdaptiveAvgPool3d")},
}

# Library calls that trace every leaf of an argument as an array: a lax loop's initial carry or
# scanned-over values, a solver's initial point.  A leaf that is not one (a str, a function: the
# activations an ``eqx.nn.MLP`` holds) raises TypeError there, as at a jit's traced position.
# A function's qualname, or "<constructor>.<method>" for a method of the object a library call
# builds (``jaxopt.LBFGS(fun=loss).run(init_params)``) -> (position, keyword) of those
# parameters.  tests/test_jaxfacts.py passes an eqx.nn.MLP at each and expects TypeError.
ARRAY_LEAF_PARAMS: dict[str, tuple[Param, ...]] = {
    "jax.lax.scan": ((1, "init"), (2, "xs")),
    "jax.lax.fori_loop": ((3, "init_val"),),
    "jax.lax.while_loop": ((2, "init_val"),),
    **{f"optimistix.{name}": ((2, "y0"),) for name in ("minimise", "least_squares", "root_find", "fixed_point")},
    **{f"jaxopt.{name}.run": ((0, "init_params"),) for name in (
        "LBFGS", "BFGS", "GradientDescent", "NonlinearCG", "LevenbergMarquardt", "GaussNewton")},
}
# Methods that return a Python list, whatever array they are called on (NumPy, JAX, torch: a
# nested list for one of two or more axes): unhashable as a static argument
# (tests/test_jaxfacts.py; a 0-d array's ``tolist()`` is a scalar, which such code rarely passes).
LIST_RETURNING_METHODS = frozenset({"tolist"})
# Library functions that return a params dict (a plain ``dict`` of arrays): unhashable as a static
# argument (jax-baseline 6f1e7ce: haiku params made by ``merge`` at a mistaken static position;
# tests/test_jaxfacts.py calls each and passes the result at a static position).
DICT_RETURNING_FUNCTIONS = frozenset({
    "haiku.data_structures.merge", "haiku.data_structures.to_mutable_dict", "haiku.data_structures.filter",
    "flax.core.unfreeze", "flax.core.frozen_dict.unfreeze",
})
# ``eqx.partition(tree, filter)`` returns (the leaves ``filter`` accepts, the rest): with an
# array filter the rest holds every non-array leaf (an MLP's activation functions), so it is
# no more a valid JAX value than the tree (tests/test_jaxfacts.py).  qualname -> the index of
# the rest in the result; the filters that accept arrays only.
PARTITIONS = {"equinox.partition": 1}
ARRAY_FILTERS = frozenset({"equinox.is_array", "equinox.is_inexact_array"})

# Library layers that hold Python flags as pytree leaves: jax.jit (or a lax loop's carry) traces
# them, and the layer's own ``if`` on the flag raises TracerBoolConversionError when it runs
# (equinox#681; eqx.filter_jit keeps them static).  tests/test_jaxfacts.py runs each under
# jax.jit and eqx.filter_jit.
FLAG_LEAF_OBJECTS: dict[str, str] = {
    "equinox.nn.Dropout": "its `inference` flag (and rate `p`) are pytree leaves, and its `__call__` "
                          "tests `if inference:`",
}
# The keyword a call of such a layer passes to use instead of its flag field: a model whose
# every call of the layer passes it (``self.dropout(x, inference=inference, key=key)``) never
# tests the traced field (tests/test_jaxfacts.py).
FLAG_CALL_OVERRIDES: dict[str, str] = {"equinox.nn.Dropout": "inference"}

# dtypes are type objects (``jnp.float32``, ``np.float32``) or ``np.dtype`` instances: at a traced
# position of jax.jit each raises the same TypeError (pass them static).
DTYPE_OBJECTS = frozenset({
    *(f"{module}.{name}" for module in ("jax.numpy", "numpy") for name in (
        "float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16",
        "uint32", "uint64", "bool_", "complex64", "complex128")),
    "jax.numpy.bfloat16", "jax.numpy.dtype", "numpy.dtype",
})

# Python iterables that JAX does not flatten (a leaf that is no array): passed at a traced
# position of jit, the call raises TypeError (jax 0.10.2 warns that flattening them as leaves
# will become an error); a generator expression too
ITERATOR_BUILTINS = frozenset({"iter", "zip", "map", "filter", "enumerate", "reversed", "range"})

# Library calls whose result is not a valid JAX type (measured on jax 0.10.2: jax.jit raises
# TypeError "Error interpreting argument to <f> as an abstract array" when it is passed at a
# traced position, and "... returned a value of type <T>, which is not a valid JAX type" when a
# jitted function returns it).  qualname -> what it returns, how to pass it instead, and what
# its items are when each is such a value too (``jax.devices()[0]``: a Device).
@dataclass(frozen=True)
class NonJaxResult:
    what: str
    fix: str
    element: str = ""


# ``fix``: what to do besides marking it static
_DEVICE_FIX = "a Device or Sharding hashes, so each one compiles once; or place the data with " \
              "jax.device_put before the call instead of passing the device"
# optax factories whose result is a GradientTransformation, a NamedTuple of the closures init and
# update: it hashes by identity (two calls with equal settings are two cache keys of a static
# argument) and jax has no type for it (at a traced position, or as a jitted function's output).
OPTAX_TRANSFORMATIONS = frozenset(f"optax.{name}" for name in (
    "adam", "adamw", "sgd", "rmsprop", "adagrad", "adafactor", "adadelta", "adamax", "adamaxw",
    "adabelief", "amsgrad", "lamb", "lars", "lion", "nadam", "nadamw", "radam", "yogi", "novograd",
    "fromage", "noisy_sgd", "sm3", "sign_sgd", "polyak_sgd", "optimistic_gradient_descent",
    "chain", "clip", "clip_by_global_norm", "clip_by_block_rms", "scale", "scale_by_adam",
    "scale_by_schedule", "scale_by_learning_rate", "add_decayed_weights", "multi_transform",
    "masked", "zero_nans", "contrib.muon",
))
# Static fields of library train states (``flax.struct.field(pytree_node=False)``): part of the
# pytree's structure, so a jitted function that returns the state with a new object there (one
# that hashes by identity: an optax transformation, a function) hands its next call, and every
# jit the state goes to, a new cache key (tests/test_jaxfacts.py measures the fields).
STATIC_STATE_FIELDS: dict[str, frozenset[str]] = {
    "flax.training.train_state.TrainState": frozenset({"apply_fn", "tx"}),
}
STATIC_STATE_FIELD_NAMES = frozenset().union(*STATIC_STATE_FIELDS.values())
# optax schedule factories: their result is a function, which hashes by identity too.
OPTAX_SCHEDULES = frozenset(f"optax.{name}" for name in (
    "exponential_decay", "cosine_decay_schedule", "linear_schedule", "warmup_cosine_decay_schedule",
    "piecewise_constant_schedule", "constant_schedule", "join_schedules", "polynomial_schedule",
    "cosine_onecycle_schedule",
))

# Optimizer factories whose ``init`` returns the optimizer state, a pytree of arrays (optax: a
# tuple of NamedTuples of arrays; jax.example_libraries: an OptimizerState holding lists).  It
# cannot be hashed, so at a static position every call raises ValueError (ctd#15, measured by
# tests/test_jaxfacts.py).  qualname -> (the init's attribute name, its index when unpacked).
# Stateless transformations (``sgd`` without momentum, ``clip``, ``scale``, ``chain`` of those)
# return EmptyState tuples, which hash: not listed.
OPTIMIZER_STATE_INITS: dict[str, tuple[str, int]] = {
    **{f"optax.{name}": ("init", 0) for name in (
        "adam", "adamw", "adabelief", "adadelta", "adafactor", "adagrad", "adamax", "adamaxw", "amsgrad",
        "lamb", "lars", "lion", "nadam", "nadamw", "noisy_sgd", "novograd", "optimistic_gradient_descent",
        "radam", "rmsprop", "sm3", "yogi", "scale_by_adam", "scale_by_schedule", "zero_nans",
        "multi_transform", "contrib.muon")},
    **{f"jax.example_libraries.optimizers.{name}": ("init_fn", 0) for name in (
        "sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adam", "adamax", "sm3")},
}

_OPTIMIZER_FIX = "a NamedTuple of functions hashes, so it compiles once; or close over it in the " \
                 "jitted function and pass only its state (an array pytree) traced"
_TRANSFORMED_FIX = "a NamedTuple of functions hashes, so it compiles once; or close over it in the " \
                   "jitted function (or jit `network.apply` itself) and pass only the params traced"
NON_JAX_RESULTS: dict[str, NonJaxResult] = {
    **{f"jax.{name}": NonJaxResult("a list of `jax.Device` objects", _DEVICE_FIX, "a `jax.Device`")
       for name in ("devices", "local_devices")},
    **{f"jax.sharding.{name}": NonJaxResult(f"a `{name}`", _DEVICE_FIX) for name in (
        "NamedSharding", "SingleDeviceSharding", "Mesh", "PartitionSpec")},
    "jax.make_mesh": NonJaxResult("a `Mesh`", _DEVICE_FIX),
    # NamedTuples of functions
    **{f"jax.example_libraries.optimizers.{name}": NonJaxResult(
        "an `Optimizer` (a NamedTuple of the functions init, update, get_params)", _OPTIMIZER_FIX,
        "a function") for name in ("sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adam",
                                   "adamax", "sm3")},
    **{name: NonJaxResult("a `GradientTransformation` (a NamedTuple of the functions init and update)",
                          _OPTIMIZER_FIX, "a function") for name in OPTAX_TRANSFORMATIONS},
    # haiku's transformed functions: NamedTuples of the functions init and apply
    **{f"haiku.{name}": NonJaxResult(f"a haiku `{kind}` (a NamedTuple of the functions init and apply)",
                                     _TRANSFORMED_FIX, "a function")
       for name, kind in (("transform", "Transformed"), ("transform_with_state", "TransformedWithState"),
                          ("without_apply_rng", "Transformed"))},
}

# Library functions code passes around as values (activations, elementwise maps): a function is
# no valid JAX type either, as an argument at a traced position or as an output (tests/test_jaxfacts.py).
_ACTIVATIONS = ("relu", "gelu", "silu", "swish", "sigmoid", "softplus", "elu", "leaky_relu", "softmax",
                "log_softmax", "celu", "selu", "glu", "hard_tanh", "relu6", "tanh", "log_sigmoid",
                "hard_sigmoid", "hard_swish", "soft_sign")
LIBRARY_FUNCTIONS = frozenset({
    *(f"jax.nn.{name}" for name in (*_ACTIVATIONS, "mish")),
    *(f"flax.linen.{name}" for name in _ACTIVATIONS),
    *(f"jax.numpy.{name}" for name in ("tanh", "sin", "cos", "exp", "log", "abs", "sqrt", "square",
                                       "sinh", "cosh", "arctan", "log1p", "expm1")),
})

# dtypes that make a NumPy array jax has no type for: strings, bytes, Python objects.  An array
# of one (``np.array(["a"])``, ``np.zeros(3, dtype="U5")``, ``x.astype(object)``) at a traced
# position of jax.jit raises the TypeError above (tests/test_jaxfacts.py, each spelling).
# Builtins and numpy names that are such dtypes; dtype strings: NON_NUMERIC_DTYPE_CODES.
NON_NUMERIC_DTYPE_BUILTINS = frozenset({"str", "bytes", "object"})
NON_NUMERIC_DTYPE_NAMES = frozenset({"numpy.str_", "numpy.bytes_", "numpy.object_"})
# ``"U5"``, ``"<U3"``, ``"S5"``, ``"O"``, ``"str"``, ``"object"``, ``"bytes"``
NON_NUMERIC_DTYPE_CODES = r"[<>|=]?(?:[USO]\d*|str|object|bytes)"
# numpy calls whose ``dtype`` keyword makes the array's type; ``array``/``asarray`` infer it
# from their data when none is given (a str element makes a str array).
NUMPY_DTYPED_CONSTRUCTORS = frozenset(f"numpy.{name}" for name in (
    "array", "asarray", "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like",
    "full_like", "fromiter", "loadtxt", "genfromtxt"))
NUMPY_INFERRING_CONSTRUCTORS = frozenset({"numpy.array", "numpy.asarray"})

# Enum classes whose members are not valid JAX types (an ``IntEnum`` member is an int: valid).
NON_JAX_ENUM_BASES = frozenset({"enum.Enum", "enum.Flag", "enum.StrEnum"})


# --- Python operations that hash a value --------------------------------------------------------
# A tracer is unhashable (jax 0.10.2; 0.4.29 briefly let hash() through, jax#21824): each of these
# raises TypeError "unhashable type: 'DynamicJaxprTracer'" on a traced value under jit.
# (under vmap: 'BatchTracer')
_UNHASHABLE = "TypeError (unhashable type: a tracer)"
# builtins -> what they hash: ``hash(x)``; ``set(xs)`` and ``frozenset(xs)`` hash each element
HASHING_BUILTINS: dict[str, str] = {"hash": "its argument", "set": "each element",
                                    "frozenset": "each element"}
# library functions that hash each element of their first argument
HASHING_FUNCTIONS = frozenset({"collections.Counter", "dict.fromkeys"})
# decorators whose function hashes its arguments to look the result up (a cache)
HASHING_DECORATORS = frozenset({"functools.lru_cache", "functools.cache"})
# syntax that hashes: ``{x}``, ``{x: v}``, ``x in {...}`` (a set or dict), ``table[x]`` and
# ``table.get(x)`` of a dict
HASHING_SYNTAX: dict[str, str] = {"set element": _UNHASHABLE, "dict key": _UNHASHABLE,
                                  "set or dict membership": _UNHASHABLE, "dict lookup": _UNHASHABLE}

# --- Keywords a jit wrapper rejects when applied --------------------------------------------------
# equinox.filter_jit decides what is static by filtering (every non-array argument is), and
# raises ValueError ("`jitkwargs` cannot contain 'static_argnums', ...") when it is given one of
# jax.jit's keywords for that (measured with equinox 0.13.8; tests/test_jaxfacts.py checks it).
REJECTED_JIT_KEYWORDS = {
    "equinox.filter_jit": frozenset({"static_argnums", "static_argnames", "donate_argnums"}),
}

# How many positional arguments a jit wrapper takes: ``jax.jit(fn, (1,))`` raises TypeError
# ("jit() takes from 0 to 1 positional arguments but 2 were given"; aesara PR 393): the spec
# keywords are keyword-only.  Checked by tests/test_jaxfacts.py.
JIT_POSITIONAL_ARGUMENTS = {"jax.jit": 1}

# --- Named axes ------------------------------------------------------------------------------------
# Collectives over a named mapped axis: qualname -> (position, keyword) of the axis name (a str or
# a tuple of them).  Traced where no enclosing transform binds that name they raise
# ``NameError: Found an unbound axis name`` (jax#3120).  tests/test_jaxfacts.py runs each
# under a binding vmap and pmap, and under ones that bind none (``ppermute`` is left out: under
# such a vmap it raises NotImplementedError).
AXIS_NAME_COLLECTIVES: dict[str, Param] = {
    **{f"jax.lax.{name}": (1, "axis_name") for name in (
        "psum", "pmean", "pmax", "pmin", "all_gather", "psum_scatter", "all_to_all")},
    "jax.lax.axis_index": (0, "axis_name"),
}
# Transforms that bind an axis name for the function they map: qualname -> (position, keyword)
# of the name they bind (none: left out); the function is their first argument.
AXIS_BINDING_TRANSFORMS: dict[str, Param] = {
    "jax.pmap": (1, "axis_name"), "jax.vmap": (3, "axis_name"),
    "equinox.filter_vmap": (3, "axis_name"), "equinox.filter_pmap": (3, "axis_name"),
    "flax.nnx.vmap": (3, "axis_name"),
}

# --- Objects that hash by their arrays -----------------------------------------------------------
# An equinox Module hashes its fields, weight arrays included, and a jax Array is unhashable: such
# an object raises TypeError (unhashable type: ArrayImpl) wherever JAX hashes it, as the function
# given to jax.jit or as a branch of lax.switch / lax.cond.  Library constructors of such objects
# (each checked by tests/test_jaxfacts.py: ``hash(obj)`` raises TypeError).
ARRAY_HASHING_OBJECTS = frozenset(f"equinox.nn.{name}" for name in (
    "Linear", "MLP", "MultiheadAttention", "Conv1d", "Conv2d", "Conv3d", "Embedding", "GRUCell",
    "LSTMCell",
))
# Library base classes whose subclasses hash by their fields (arrays included).
FIELD_HASHING_BASES = frozenset({"equinox.Module"})
# lax functions that hash their function arguments to cache the traced branches or bodies,
# eagerly and under jit alike (measured: an equinox Linear as a branch, as scan's ``f`` or as a
# while_loop's ``cond_fun`` raises TypeError both ways; ``fori_loop`` and ``map`` wrap theirs
# first and do not).  qualname -> (position, keyword, a sequence of functions?).
HASHED_FUNCTION_PARAMS: dict[str, tuple[tuple[int, str, bool], ...]] = {
    "jax.lax.switch": ((1, "branches", True),),
    "jax.lax.cond": ((1, "true_fun", False), (2, "false_fun", False)),
    "jax.lax.scan": ((0, "f", False),),
    "jax.lax.while_loop": ((0, "cond_fun", False), (1, "body_fun", False)),
}

# --- Transforms that keep the signature ----------------------------------------------------------
# They wrap with functools.wraps, so inspect.signature (which jax.jit reads to map static_argnums
# to names) sees the wrapped function's parameters: ``@partial(jax.jit, static_argnums=1)`` over
# ``@jax.grad`` or ``@partial(jnp.vectorize, ...)`` counts in the original signature
# (tests/test_jaxfacts.py).
SIGNATURE_PRESERVING_TRANSFORMS = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.vmap", "jax.checkpoint", "jax.remat", "jax.jacfwd",
    "jax.jacrev", "jax.hessian", "jax.numpy.vectorize",
})
# Jits whose result shows the function's own signature, so a jit applied again to it checks its
# spec against those parameters (``jax.jit(train_step, static_argnums=(2, 3))`` of a
# ``@partial(jax.jit, ...)``-decorated two-parameter ``train_step``: ValueError when applied).
SIGNATURE_KEEPING_JITS = frozenset({"jax.jit"})

# Transforms whose result calls the function with the arguments it is given (the differentiated
# ones as tracers of the same shape): ``jax.grad(loss)(params, batch)`` of a jitted ``loss`` is a
# call of that jit, so a batch of a new shape compiles it again (measured: twice per new shape,
# the forward and the backward program).  tests/test_jaxfacts.py checks each entry.
ARGUMENT_FORWARDING_TRANSFORMS = frozenset({
    "jax.grad", "jax.value_and_grad", "jax.checkpoint", "jax.remat", "jax.jacfwd", "jax.jacrev",
    "jax.hessian",
})

# Host callbacks: the function handed first runs on the host, later, with concrete NumPy arrays
# (``jax.pure_callback(host_call, shapes, x)``): its body is not traced code
# (tests/test_jaxfacts.py calls np.asarray on its argument under jit).
HOST_CALLBACKS = frozenset({"jax.pure_callback", "jax.experimental.io_callback", "jax.debug.callback"})

# Context managers under which jax.numpy calls on concrete operands run eagerly, even inside a
# staging trace: their results are concrete (``positive = z > 0`` can drive a Python ``if``;
# jax#9823, tests/test_jaxfacts.py).
COMPILE_TIME_EVAL_CONTEXTS = frozenset({"jax.ensure_compile_time_eval", "jax.core.eval_context"})
# The tracer type: ``isinstance(v, Tracer)`` tells a tracer from a concrete value, so code that
# tests it first (``if not isinstance(c, jax.core.Tracer) and c:``) never converts a tracer.
TRACER_TYPES = frozenset({"jax.core.Tracer"})
# ``functools.singledispatch`` picks the implementation by ``type(arg).__mro__``.  A concrete
# array's class derives from ``jax.Array``, a tracer's does not (``isinstance`` still says
# True: jax.Array answers it by hand), so under jit, vmap or grad a function registered for an
# array class runs its fallback instead (horqrux beb71b0: NotImplementedError).  Registering
# for a TRACER_TYPES class as well covers tracers.  tests/test_jaxfacts.py dispatches each.
TYPE_DISPATCH_DECORATORS = frozenset({"functools.singledispatch"})
ARRAY_DISPATCH_CLASSES = frozenset({"jax.Array", "jax.numpy.ndarray"})
# Whether jit is disabled (``with jax.disable_jit():``): a branch taken only when it is runs on
# concrete values, never on a jit's tracers (jax#3994: an ``assert`` there is skipped under
# jit).  tests/test_jaxfacts.py reads each under jax.jit and under jax.disable_jit.
JIT_DISABLED_FLAGS = frozenset({"jax.config.jax_disable_jit"})

# Decorators that, applied over a jitted function, call it with the arguments they get: calls
# of the decorated name reach the jit as written (``@chex.chexify`` over ``@jax.jit``; chex#387;
# ``@jaxtyped(typechecker=...)`` over ``@partial(jax.jit)``, odisseo 114aa9f).  Used bare or
# called with options.
PASS_THROUGH_WRAPPERS = frozenset({"chex.chexify", "jaxtyping.jaxtyped"})

# Class decorators and bases that make a class's instances pytrees whose fields are leaves unless
# marked static (STATIC_FIELD_MARKERS): an array field is traced under jit, a ``str`` field makes
# the instance an invalid jit argument (TypeError; tests/test_jaxfacts.py checks both).
PYTREE_CLASS_DECORATORS = frozenset({"flax.struct.dataclass", "chex.dataclass",
                                     "jax.tree_util.register_dataclass",
                                     "jax_dataclasses.pytree_dataclass"})
PYTREE_CLASS_BASES = frozenset({"flax.struct.PyTreeNode", "equinox.Module"})
# NamedTuple classes are pytrees too (every field a leaf).
NAMED_TUPLE_BASES = frozenset({"typing.NamedTuple"})

# --- Transforms with a static_argnums of their own (besides jax.jit's) --------------------------
# The positions count the wrapped function's positional parameters; ``self_counted``: applied to
# a flax.linen Module class (``nn.remat(MLP, static_argnums=(2,))``), the Module (``self`` of
# its ``__call__``) is argument 0.  ``out_of_range``: the error a position past the parameters
# raises when the wrapped function is called (None: the transform ignores it).  Measured on
# jax 0.10.2 / flax 0.12 (tests/test_jaxfacts.py): ``nn.remat(MLP, static_argnums=(1,))`` over
# ``__call__(self, x, train)`` makes ``x`` static and leaves ``train`` traced (flax#3946).
# ``unpassed``: the error a call raises when it passes fewer positional arguments than a static
# position needs (the transform checks the positions against each call's arguments, so a
# defaulted parameter left out, or given by keyword, raises: pmwd#27); None: it does not.
# ``jax.pmap`` checks its ``static_broadcasted_argnums`` the same way at each call (jax#3007:
# a static argument passed by keyword raises ValueError "All static broadcasted arguments must
# be passed positionally"); it is a jit-like too, so the traced-value rules read its spec.
@dataclass(frozen=True)
class StaticSpecTransform:
    fun: Param  # the function (or Module class) transformed
    keyword: str = "static_argnums"
    self_counted: bool = False
    out_of_range: Optional[str] = "ValueError"
    unpassed: Optional[str] = None


STATIC_SPEC_TRANSFORMS: dict[str, StaticSpecTransform] = {
    "jax.checkpoint": StaticSpecTransform((0, "fun"), unpassed="ValueError"),
    "jax.remat": StaticSpecTransform((0, "fun"), unpassed="ValueError"),
    "flax.nnx.remat": StaticSpecTransform((0, "f")),
    "flax.linen.remat": StaticSpecTransform((0, "target"), self_counted=True),
    "flax.linen.checkpoint": StaticSpecTransform((0, "target"), self_counted=True),
    "flax.linen.jit": StaticSpecTransform((0, "target"), self_counted=True, out_of_range=None),
    "jax.pmap": StaticSpecTransform((0, "fun"), keyword="static_broadcasted_argnums", unpassed="ValueError"),
}

# --- Jits that keep an object's plain attributes static ----------------------------------------
# ``nnx.jit`` splits a Module into its Variables (traced) and a graph definition that holds every
# other attribute (static, part of the cache key): ``model.temperature = 1.0 / (epoch + 1)``
# before each call compiles again for every new value (measured: 3 values, 3 compiles;
# tests/test_jaxfacts.py).
GRAPH_STATIC_JITS = frozenset({"flax.nnx.jit"})

# --- Library functions jitted with equinox.filter_jit --------------------------------------------
# Each is an ``equinox.filter_jit`` wrapper: every argument that is not an array is static, so a
# Python float that changes between calls (``t1`` of ``diffeqsolve``, ``args`` of ``minimise``)
# compiles it again (measured: 3 values, 3 compiles; tests/test_jaxfacts.py).
FILTER_JITTED_LIBRARY_FUNCTIONS = frozenset({
    "diffrax.diffeqsolve", "optimistix.minimise", "optimistix.root_find", "optimistix.least_squares",
    "optimistix.fixed_point", "lineax.linear_solve",
})
# Estimators built with a function that their ``fit`` runs again and again (a custom objective).
FUNCTION_KEEPING_ESTIMATORS = frozenset({
    *(f"xgboost.{name}" for name in ("XGBModel", "XGBRegressor", "XGBClassifier")),  # XGBRanker refuses one
    *(f"lightgbm.{name}" for name in ("LGBMModel", "LGBMRegressor", "LGBMClassifier", "LGBMRanker")),
})
# Library calls that run (many times) the functions they are given, before they return (an estimator's ``fit`` does): a jit
# made per call of a function and handed to one of them is compiled for that call only.
# qualified name -> the (position, keyword) of each function parameter.  Checked by
# tests/test_jaxfacts.py (each calls the function it is given).
FUNCTION_RUNNING_CALLS: dict[str, tuple[tuple[int, str], ...]] = {
    "scipy.optimize.minimize": ((0, "fun"), (-1, "jac"), (-1, "hess")),
    "scipy.optimize.root": ((0, "fun"), (-1, "jac")),
    "scipy.optimize.least_squares": ((0, "fun"), (-1, "jac")),
    "scipy.optimize.minimize_scalar": ((0, "fun"),),
    "scipy.optimize.root_scalar": ((0, "f"),),
    "scipy.optimize.curve_fit": ((0, "f"),),
    "scipy.optimize.fsolve": ((0, "func"),),
    "scipy.integrate.solve_ivp": ((0, "fun"),),
    "scipy.integrate.quad": ((0, "func"),),
    # gradient boosting with a custom objective (its gradient often from jax.grad): the booster
    # calls it once per boosting round
    "xgboost.train": ((-1, "obj"), (-1, "custom_metric")),
    "lightgbm.train": ((-1, "feval"),),
    **{name: ((-1, "objective"),) for name in FUNCTION_KEEPING_ESTIMATORS},
}

# Library functions whose compiled program is keyed on the identity of the functions given to
# them: the filter-jitted ones above, and ``jax.experimental.ode.odeint`` (a jit with the
# vector field static).  A new lambda or nested def per call compiles them again (measured by
# tests/test_jaxfacts.py: two equal lambdas, two compiles; one function, one).
FUNCTION_KEYED_LIBRARY_CALLS = FILTER_JITTED_LIBRARY_FUNCTIONS | frozenset({"jax.experimental.ode.odeint"})
# The parameter of those library calls that picks the algorithm (its class is part of the
# compiled program): a loop that passes another solver on every iteration compiles a new program
# each time whatever else it passes.
SOLVER_PARAMETERS: dict[str, tuple[int, str]] = {
    "diffrax.diffeqsolve": (1, "solver"),
    **{f"optimistix.{name}": (1, "solver") for name in ("minimise", "root_find", "least_squares", "fixed_point")},
    "lineax.linear_solve": (2, "solver"),
}
# Library functions outside jax's own namespaces whose result holds tracers when an argument
# does (in a traced body), with the attributes of the result that hold only tracers (empty:
# the result is one): the filter-jitted solvers above return a ``Solution`` whose
# ``ys``/``value`` and ``result`` code are traced (its ``stats`` and solver ``state`` hold
# Python ints too); diffrax's checks of a result code return a traced bool.  A Python ``if`` on
# them raises there (measured by tests/test_jaxfacts.py under jax.jit).
ARGUMENT_TRACED_LIBRARY_FUNCTIONS = {
    "diffrax.diffeqsolve": frozenset({"ts", "ys", "result"}),
    **{name: frozenset({"value", "result"}) for name in FILTER_JITTED_LIBRARY_FUNCTIONS
       if name != "diffrax.diffeqsolve"},
    "diffrax.is_okay": frozenset(), "diffrax.is_successful": frozenset(), "diffrax.is_event": frozenset(),
}

# --- Arguments that may not be tracers ----------------------------------------------------------
# Custom-derivative transforms whose spec marks arguments that must stay Python values: a tracer
# given there raises when the function is called under a trace (jit, vmap), differentiated or not.
# Measured on jax 0.10.2 (tests/test_jaxfacts.py): ``jax.custom_vjp`` raises UnexpectedTracerError
# for ``nondiff_argnums`` and ``nondiff_argnames`` (jax#2912); ``jax.custom_jvp`` takes tracers
# there, so it is not listed.
@dataclass(frozen=True)
class NondiffSpecTransform:
    fun: Param  # the function transformed
    keyword: str  # the positions
    names_keyword: str  # the same, by parameter name
    error: str  # what a tracer there raises
    self_counted: bool = False


NONDIFF_SPEC_TRANSFORMS: dict[str, NondiffSpecTransform] = {
    "jax.custom_vjp": NondiffSpecTransform((0, "fun"), "nondiff_argnums", "nondiff_argnames",
                                           "UnexpectedTracerError"),
}

# Class decorators that register a pytree whose metadata (compared with ``==`` by every jit) is
# some of its fields: qualname -> how the fields are chosen ("marked": dataclass fields with
# ``field(metadata={"static": True})``; "flatten": the aux data ``tree_flatten`` returns).  An
# array there raises ValueError when a second, equal instance is compared (jax#28979,
# jax#28659; tests/test_jaxfacts.py).
PYTREE_METADATA_DECORATORS: dict[str, str] = {
    "jax.tree_util.register_dataclass": "marked",
    "jax.tree_util.register_pytree_node_class": "flatten",
}

# --- Class decorators that make no pytree ----------------------------------------------------------
# A class under these (and nothing else) is still a plain Python class to JAX: ``self`` of a
# ``@jax.jit`` method is no valid jit argument and the first call raises TypeError, as for an
# undecorated class (jax issue 1567: an ``@attr.s`` class; tests/test_jaxfacts.py applies each).
NON_PYTREE_CLASS_DECORATORS = frozenset({
    "dataclasses.dataclass", "attr.s", "attr.attrs", "attr.define", "attr.frozen", "attr.mutable",
    "attrs.define", "attrs.frozen", "attrs.mutable",
})

# --- Library bases that leave a class plain -----------------------------------------------------
# A subclass of these is still a plain Python object to JAX (no pytree registration, no
# ``__init_subclass__`` that makes one): ``self`` of a ``@jax.jit`` method raises TypeError on
# the first call (rl-blox PR 19: a value function deriving ``abc.ABC``; a torch ``Dataset`` with a
# jitted ``__getitem__``, GAN-with-JAX's "jax in data loading" commit; tests/test_jaxfacts.py,
# where the library is installed).
PLAIN_CLASS_BASES = frozenset({"abc.ABC", "torch.utils.data.Dataset", "torch.utils.data.IterableDataset"})
# Metaclasses that leave a class plain the same way (``class NeuralNetwork(metaclass=abc.ABCMeta)``:
# neural_ilqr's jitted ``update`` method raises TypeError on its ``self``; tests/test_jaxfacts.py).
PLAIN_METACLASSES = frozenset({"abc.ABCMeta"})

# --- Base classes whose subclasses are no pytrees -------------------------------------------------
# A flax.linen Module is a frozen dataclass, not a pytree: passed at a traced position of
# jax.jit it raises TypeError on the call; as a static argument it hashes by its attributes
# (flax#853; tests/test_jaxfacts.py).
NON_PYTREE_CLASS_BASES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})

# --- Random draws from a state kept in Python ----------------------------------------------------
# Each call draws from a generator the library keeps in Python and advances as a side effect
# (NumPy's and the standard library's global generators).  Inside jit the draw runs once, at
# trace time, and its number is baked into the compiled code: every call returns the same
# "random" value (tests/test_jaxfacts.py: two calls of the jitted draw agree, two eager draws
# differ).  qualname -> the arguments of an example call (the test's).
HOST_RANDOM_DRAWS: dict[str, tuple] = {
    **{f"numpy.random.{name}": () for name in ("rand", "randn", "random", "normal", "uniform",
                                               "standard_normal", "exponential")},
    "numpy.random.randint": (1 << 30,),
    "numpy.random.choice": (1 << 30,),
    "numpy.random.permutation": (100,),
    **{f"random.{name}": () for name in ("random",)},
    "random.uniform": (0.0, 1.0),
    "random.gauss": (0.0, 1.0),
    "random.normalvariate": (0.0, 1.0),
    "random.randint": (0, 1 << 30),
}
# jax.random functions that draw numbers (not the key functions: split, fold_in, key, PRNGKey):
# a value drawn per iteration and made a Python number (``int(jax.random.randint(k, (), 1, 10))``)
# is a new value on every iteration.
JAX_RANDOM_NUMBER_DRAWS = frozenset({"randint", "uniform", "normal", "choice", "categorical",
                                     "bernoulli", "exponential", "gamma", "beta", "poisson",
                                     "permutation", "truncated_normal", "gumbel", "laplace"})
# Where NumPy's host random draws take the shape of their output: (position, keyword); position
# -1: every positional argument is one dimension (``np.random.rand(n, 3)``).  Module functions
# by qualified name, Generator / RandomState methods by name.  An array drawn per iteration with
# a size that changes (``np.random.rand(n_atoms, 3)``) has a new shape.  Checked by
# tests/test_jaxfacts.py (the size given there is the output's shape).
HOST_RANDOM_SIZE_PARAMS: dict[str, tuple[int, str]] = {
    "numpy.random.rand": (-1, ""), "numpy.random.randn": (-1, ""),
    "numpy.random.random": (0, "size"), "numpy.random.random_sample": (0, "size"),
    "numpy.random.standard_normal": (0, "size"),
    "numpy.random.normal": (2, "size"), "numpy.random.uniform": (2, "size"),
    "numpy.random.randint": (2, "size"), "numpy.random.choice": (1, "size"),
}
HOST_GENERATOR_SIZE_PARAMS: dict[str, tuple[int, str]] = {
    "random": (0, "size"), "standard_normal": (0, "size"), "normal": (2, "size"),
    "uniform": (2, "size"), "integers": (2, "size"), "choice": (1, "size"),
}
# Generator objects kept in Python (``rng = np.random.default_rng(0)``): constructor -> its draw
# methods, with the arguments of an example call (the test's).  A draw from one inside jit is
# baked in like a global draw above (tests/test_jaxfacts.py).
HOST_RANDOM_GENERATORS: dict[str, dict[str, tuple]] = {
    "numpy.random.default_rng": {
        **{name: () for name in ("random", "normal", "uniform", "standard_normal", "exponential")},
        "integers": (1 << 30,), "choice": (1 << 30,), "permutation": (100,),
    },
    "numpy.random.RandomState": {
        **{name: () for name in ("rand", "randn", "random", "normal", "uniform", "standard_normal",
                                 "exponential", "random_sample")},
        "randint": (1 << 30,), "choice": (1 << 30,), "permutation": (100,),
    },
    "random.Random": {
        "random": (), "uniform": (0.0, 1.0), "gauss": (0.0, 1.0), "normalvariate": (0.0, 1.0),
        "randint": (0, 1 << 30),
    },
}
# Reads of the host's clocks: each call returns a later time.  Inside jit the read runs once,
# at trace time, and is baked in like a host draw: every call sees the first trace's time (a key
# seeded from it, ``jax.random.key(int(time.time()))``, gives the same numbers every call: jax
# issue 1141; tests/test_jaxfacts.py: two jitted reads 20 ms apart agree, two eager ones differ).
HOST_CLOCK_READS = frozenset({"time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns",
                              "time.monotonic", "time.monotonic_ns"})
# Makers of Python iterators: ``next(it)`` advances state kept on the host, so inside jit (or a
# lax loop body) it runs once at trace time and its item is baked in (the sharp-bits example:
# ``lax.fori_loop(0, 10, lambda i, x: x + next(it), 0)`` returns 0, not 45).  Builtins bare.
HOST_ITERATOR_MAKERS = frozenset({"iter", "itertools.count", "itertools.cycle", "itertools.islice",
                                  "itertools.chain", "itertools.product", "itertools.permutations",
                                  "itertools.combinations"})
# lax loops trace their body once for all iterations: a value read at trace time is the same in
# every iteration (tests/test_jaxfacts.py: a host draw in each body repeats at every step).
LAX_LOOP_BODIES: dict[str, Param] = {
    "jax.lax.fori_loop": (2, "body_fun"),
    "jax.lax.while_loop": (1, "body_fun"),
    "jax.lax.scan": (0, "f"),
    "jax.lax.map": (0, "f"),
}
# Dispatchers whose first argument names the function to call: qualname -> the prefix of the
# names that are random draws from a state kept in Python.  ``autoray.do("random.normal",
# like="jax")`` splits autoray's global jax key in Python (autoray#27): under jit the draw is
# baked in as above, and the key split at trace time is left in autoray's global state, so the
# next eager draw raises UnexpectedTracerError (autoray 0.11.0, measured by the test).
DISPATCHED_RANDOM_DRAWS: dict[str, str] = {"autoray.do": "random."}

# --- State objects that an update consumes -------------------------------------------------------
# class -> its method that returns the updated object and marks the old one consumed by writing to
# it (equinox: ``self._state = _sentinel``), so that a later use of the old one raises (ValueError
# "Attempted to use old state").  Under jit the write lands on the traced copy and is dropped: the
# old object stays usable and reusing it silently loses the update (equinox#1071; the test checks
# both behaviours).
CONSUMING_METHODS: dict[str, str] = {"equinox.nn.State": "set"}
# ``maker(Cls)(...)`` returns a tuple holding an instance of Cls (at this index) and its state.
STATE_MAKERS: dict[str, int] = {"equinox.nn.make_with_state": 0}

# --- Configuration flags that jit's cache key leaves out -----------------------------------------
# flag -> the functions whose traced result it changes.  jit compiles under the flag's value at
# the first call and keeps that program when ``jax.config.update(flag, ...)`` changes it later:
# the next call of the same jitted function silently returns the old mode's result until
# ``jax.clear_caches()`` (jax#40609, open; jax 0.10.2, measured by tests/test_jaxfacts.py).
CACHE_KEY_MISSING_FLAGS: dict[str, frozenset[str]] = {
    "jax_high_dynamic_range_gumbel": frozenset({"jax.random.gumbel", "jax.random.categorical"}),
}
CONFIG_UPDATES = frozenset({"jax.config.update"})
CACHE_CLEARS = frozenset({"jax.clear_caches"})

# --- Python ints too large for 32 bits -----------------------------------------------------------
# With 64-bit types off (the default), JAX turns a Python int into a weakly typed int32 where it
# meets a jax value, and one outside this range raises OverflowError: in arithmetic or a
# comparison with a traced value (a float one too: ``x * 2654435761``, ``x % 2**32``), as an
# argument of a jitted call (``f(2**40)``) and as an int in a jitted function's output
# (jax#15631: ``return x, 2**64``).  Measured on jax 0.10.2 (tests/test_jaxfacts.py); with the
# flag on the same code runs.  A wrapped constant works (``x * jnp.uint32(2654435761)``).
PYTHON_INT_RANGE = (-2**31, 2**31 - 1)
X64_FLAG = "jax_enable_x64"  # the config flag (JAX_ENABLE_X64 in the environment) that turns 64-bit types on

# --- Weak types ----------------------------------------------------------------------------------
# jax constructors whose result is strongly typed whatever their arguments (``jnp.ones(())`` is
# float32, not weak; ``jnp.full((), 1.0)`` and ``jnp.zeros_like(1.0)`` keep a Python scalar's
# weak type and are not here).  jit compiles once per (dtype, weak type), so one of these and a
# Python scalar (or ``jnp.array(1.0)``) at the same argument are two signatures (equinox#817).
# tests/test_jaxfacts.py checks each result's weak_type.
# jax.numpy constructors that keep a Python scalar's weak type when no dtype is given, with the
# position of that scalar: ``jnp.asarray(0.5)``, ``jnp.full((n,), 1.0)`` are weakly typed float32
WEAK_SCALAR_ARRAYS: dict[str, int] = {"jax.numpy.array": 0, "jax.numpy.asarray": 0, "jax.numpy.full": 1}
STRONG_ARRAY_CONSTRUCTORS = frozenset({
    *(f"jax.numpy.{name}" for name in ("ones", "zeros", "empty", "eye", "identity", "arange", "linspace")),
    *(f"jax.random.{name}" for name in ("normal", "uniform")),
})
# Updates that cast every leaf of the params they are given to ``jnp.asarray(p).dtype``: a Python
# float leaf (weakly typed under jit) comes back a strongly typed float32 array, so a params
# pytree of Python scalars fed back through a jitted step changes signature after the first
# call (tests/test_jaxfacts.py).
LEAF_CASTING_UPDATES = frozenset({"optax.apply_updates"})
# Calls that drop every compiled program of the process (jax.clear_caches: the jit caches and
# the tracing caches), so the next call of each jitted function traces and compiles again
# (tests/test_jaxfacts.py).
CACHE_CLEARING_CALLS = frozenset({"jax.clear_caches"})
# optax transformations whose ``init`` state holds weakly typed scalars that ``update`` returns
# strongly typed: a training loop that feeds the state through one jitted step compiles it twice
# (optax PR #1108, #1175; measured with optax 0.2.8 by tests/test_jaxfacts.py, also inside
# optax.chain).  Other optimizers' states keep their types (adam, sgd, polyak_sgd, MultiSteps ...).
WEAK_STATE_OPTIMIZERS = frozenset({"optax.lbfgs", "optax.scale_by_zoom_linesearch",
                                   "optax.scale_by_backtracking_linesearch"})


# Calls whose iteration yields what an argument yields (in order, or with an index): progress
# bars and loader wrappers (``for batch in tqdm(loader)``, ``for i in tqdm(range(n))``).
PASS_THROUGH = frozenset({
    "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tensorflow_datasets.as_numpy",
    "itertools.islice", "grain.python.DataLoader", "grain.DataLoader",
})
# ``range`` with a progress bar: ``trange(0, n, B)`` counts as ``tqdm(range(0, n, B))`` does.
RANGES_WITH_PROGRESS = frozenset({"tqdm.trange", "tqdm.auto.trange", "tqdm.notebook.trange"})
