"""Where a ``for`` loop's batches come from, and whether the last one is shorter (JIT504).

A loop ``for batch in <source>:`` feeds a jitted function batches; jit compiles once per shape,
so a short last batch is one more compile (per epoch's first pass, per jitted function).  The
sources recognised, through names, ``enumerate`` / ``zip`` / ``iter`` / ``tqdm`` and dataset
methods that keep the batches (``prefetch``, ``repeat``, ``as_numpy_iterator``, ...):

* a library loader of ``jaxfacts.RAGGED_BATCHERS`` called without its drop keyword
  (``DataLoader(ds, batch_size=32)``, ``ds.batch(32)`` on a ``tf.data`` / ``tfds`` / ``grain``
  dataset, ``grain.python.Batch(32)`` among a grain DataLoader's operations, a Hugging Face
  dataset's ``ds.iter(batch_size=32)``, ``np.array_split``) or one without a drop option
  (``tfds.load(..., batch_size=32)``), also on a dataset handed to the function;
* a generator function of this module that slices its data up to its length (``len(x)``,
  ``x.shape[0]``, or a name it assigns from one; a count its caller gives may be a multiple of
  the batch size) without dropping the remainder: ``for s in range(0, n, B): yield x[s:s + B]``
  or ``while start < n: yield x[start:end]`` with no test of the batch's length, or one that
  drops the short batch only when a flag (``shuffle``) is true and is called with that flag
  false; also ``for i in range(num_batches): yield x[perm[i * B:(i + 1) * B]]`` with
  ``num_batches = full + bool(rest)`` of ``divmod(len(x), B)`` (JAX's MNIST example: silent
  when the known length is a multiple of the known batch size), drawn with ``next(batches)``
  as well as iterated;
* an instance of a loader class of this module (or another) whose ``__iter__`` is such a
  generator, over ``len(self.data)`` or an attribute assigned a length (``self.n = len(x)``),
  also one a factory function defines and returns, dropping the remainder only under the
  factory's flag (``stop = n - n % B if drop_last else n``);
* a parameter that every call of its function fills with such a source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from jitlint.jaxfacts import (PASS_THROUGH, RAGGED_BATCHERS, SHAPED_CONSTRUCTORS, TENSOR_DATASETS, TFDS_SPLIT_SIZES,
                              TORCH_SIZED_CONSTRUCTORS, TORCHVISION_SPLIT_SIZES, RaggedBatcher)
from jitlint.semantic import Scope, SemanticModel, argument_value, dotted_name
from jitlint.values import (ValueFlow, annotated_fields, assigned, bound_values, dict_item_value, host_random_size, literal_truth, namespace_member,
                            returned_values, unpacked_call)
from jitlint.batches import assigned_once, batched_length, collected_to_end, ragged_loader_class, ragged_loop, src as _src, stop_parameter
from jitlint.walk import iter_nodes, own_nodes
from jitlint.walk import children

PASS_THROUGH_BUILTINS = frozenset({"enumerate", "zip", "iter", "list", "tuple"})
# Dataset methods that keep the batching of the dataset they are called on.
DATASET_METHODS = frozenset({
    "prefetch", "repeat", "as_numpy_iterator", "cache", "map", "take", "skip", "shuffle",
    "to_iter_dataset", "mp_prefetch", "with_options",
})
# Dataset methods that keep every example (a whole split stays whole).
LENGTH_KEEPING_DATASET_METHODS = frozenset({"map", "shuffle", "prefetch", "cache", "with_options"})
FALSY = ("False", "None")
# ``np.split(x, [i, j])``: parts cut at those row indices
SPLITTING_AT_INDICES = frozenset({"numpy.split", "numpy.array_split", "jax.numpy.split", "jax.numpy.array_split"})


@dataclass(frozen=True)
class RaggedSource:
    what: str  # for the message: where the batch comes from and why its last one is short
    fix: str


def ragged_source(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression, scope: Scope,
                  depth: int = 0, project=None, context=None) -> Optional[RaggedSource]:
    """The batches ``for ... in expr`` yields end with a shorter one (None: not known to).
    ``project``: (the project index, this module's name, whether it is a package), to ask
    about a generator imported from another module; ``context``: the module's CallingContext,
    for what its calls give a parameter (a loader handed to the function) and the method an
    instance of its classes runs (``data.get_batches()``)."""
    if depth > 6:
        return None
    passed = context.passed_to if context is not None else None
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        if binding is not None and binding.kind == "param" and passed is not None:
            # ``def evaluate(state, loader): for batch in loader``: a call that hands a ragged
            # one (``accuracy(params, test_batches)``) compiles the short batch's shape there
            values = passed(binding) or []
            return next((found for value, site in values if (found := ragged_source(
                model, flow, value, site.frame.scope, depth + 1, project, context)) is not None), None)
        if binding is not None and isinstance(binding.node, cst.With):  # ``with tqdm(loader) as bar:``
            item = next((item for item in binding.node.items if item.asname is not None
                         and isinstance(item.asname.name, cst.Name) and item.asname.name.value == expr.value), None)
            return ragged_source(model, flow, item.item, scope, depth + 1, project, context) \
                if item is not None else None
        if binding is None or binding.kind != "assign" or not isinstance(binding.node, cst.Assign):
            return None
        if _empty_list(binding.value) and isinstance(binding.scope.node, (cst.FunctionDef, cst.Module)):
            # ``batches = []`` filled in a loop: ``batches.append(x[s:s + B])``
            found_loop = collected_to_end(binding.scope.node, expr.value, outer_assignments(model, binding.scope.node))
            if found_loop is None or found_loop.guard is not None \
                    or _divides_evenly_known(model, flow, found_loop.loop, binding.scope.node, found_loop.size):
                return None
            return _ragged(expr.value, "list ", found_loop.way)
        for value, value_scope in bound_values(model, flow, binding):  # ``train, test = make_loaders()``
            found = ragged_source(model, flow, value, value_scope, depth + 1, project, context)
            if found is not None:
                return found
        return None
    if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name):
        # ``loaders["train"]`` of a dict filled once, also one handed to the function
        # (``def train(loaders): for batch in loaders["train"]``)
        binding = flow.single(expr.value, scope)
        if binding is not None and binding.kind == "param" and passed is not None:
            return next((found for value, site in passed(binding) or () if isinstance(value, cst.Name)
                         and (found := ragged_source(model, flow, expr.with_changes(value=value), site.frame.scope,
                                                     depth + 1, project, context)) is not None), None)
        item = dict_item_value(flow, expr, scope)
        return ragged_source(model, flow, item[0], item[1], depth + 1, project, context) if item is not None else None
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, (cst.Name, cst.Call)):
        # ``for x, y in data.training_generator`` of ``data = TrainingData(training_generator=
        # DataLoader(...))``, also handed to the function or returned by a helper
        return _field_source(model, flow, expr, scope, depth, project, context)
    if isinstance(expr, (cst.List, cst.Tuple)):  # a grain DataLoader's operations=[...]
        for element in expr.elements:
            found = ragged_source(model, flow, element.value, scope, depth + 1, project, context)
            if found is not None:
                return found
        return None
    if not isinstance(expr, cst.Call):
        return None
    found = _batcher_call(model, flow, expr, scope, passed)
    if found is not None:
        return found
    func = expr.func
    qualname = model.qualified_name(func, scope)
    if qualname in PASS_THROUGH or (isinstance(func, cst.Name) and func.value in PASS_THROUGH_BUILTINS
                                    and not model.lookup(func.value, scope)):
        for arg in expr.args:
            found = ragged_source(model, flow, arg.value, scope, depth + 1, project, context)
            if found is not None:
                return found
        return None
    if isinstance(func, cst.Attribute) and func.attr.value in DATASET_METHODS:
        return ragged_source(model, flow, func.value, scope, depth + 1, project, context)
    if expr.args and not expr.args[0].star and expr.args[0].keyword is None and _returns_first_argument(model, func, scope):
        # ``tqdm = lambda it, **kw: it`` (progress bars switched off): the iterable itself
        return ragged_source(model, flow, expr.args[0].value, scope, depth + 1, project, context)
    relayed = _relayed_iterable(model, func, scope)
    if relayed is not None:  # ``def infinite(): while True: yield from trainloader``
        found = ragged_source(model, flow, relayed[0], relayed[1], depth + 1, project, context)
        if found is not None:
            return found
    for returned in returned_values(model, flow, expr, scope):  # ``def make_loader(): return DataLoader(...)``
        found = ragged_source(model, flow, returned.value, returned.scope, depth + 1, project, context)
        if found is None and isinstance(returned.value, cst.Call):  # ``return _Loader()`` of a class it defines
            found = _ragged_generator(model, flow, returned.value, returned.scope, None, (expr, returned.function))
        if found is not None:
            return found
    return _ragged_generator(model, flow, expr, scope, project, context=context)


def _field_source(model: SemanticModel, flow: ValueFlow, expr: cst.Attribute, scope: Scope, depth: int,
                  project, context) -> Optional[RaggedSource]:
    """The ragged source stored in the field ``expr.attr`` of the dataclass-style object
    ``expr.value`` is (a construction of a class of this module whose annotated fields take
    the arguments in order), through names, parameters and helpers that return it."""
    def within(holder: cst.BaseExpression, holder_scope: Scope) -> Optional[RaggedSource]:
        return ragged_source(model, flow, expr.with_changes(value=holder), holder_scope, depth + 1, project, context)

    holder = expr.value
    if isinstance(holder, cst.Name):
        binding = flow.single(holder, scope)
        if binding is not None and binding.kind == "param" and context is not None:
            return next((found for value, site in context.passed_to(binding) or ()
                         if (found := within(value, site.frame.scope)) is not None), None)
        if binding is None or binding.kind != "assign":
            return None
        return next((found for value, value_scope in bound_values(model, flow, binding)
                     if (found := within(value, value_scope)) is not None), None)
    assert isinstance(holder, cst.Call)
    binding = model.single_binding(holder.func.value, scope) if isinstance(holder.func, cst.Name) else None
    if binding is not None and binding.kind == "class":
        if not _dataclass_style(binding.node):  # type: ignore[arg-type]
            return None
        fields = [f.target.value for f in annotated_fields(binding.node)]  # type: ignore[arg-type, union-attr]
        if expr.attr.value not in fields:
            return None
        value = argument_value(holder, fields.index(expr.attr.value), expr.attr.value)
        return ragged_source(model, flow, value, scope, depth + 1, project, context) if value is not None else None
    return next((found for returned in returned_values(model, flow, holder, scope)
                 if (found := within(returned.value, returned.scope)) is not None), None)


def _dataclass_style(cls: cst.ClassDef) -> bool:
    """A class whose constructor takes its annotated fields in order: a dataclass (also
    flax.struct's, chex's) or a NamedTuple, with no ``__init__`` of its own."""
    body = cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ()
    if any(isinstance(s, cst.FunctionDef) and s.name.value == "__init__" for s in body):
        return False
    named = [dotted_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) or ""
             for d in cls.decorators] + [dotted_name(b.value) or "" for b in cls.bases]
    return any(n.rsplit(".", 1)[-1] in ("dataclass", "NamedTuple", "PyTreeNode") for n in named)


def _relayed_iterable(model: SemanticModel, func: cst.BaseExpression, scope: Scope
                      ) -> Optional[tuple[cst.BaseExpression, Scope]]:
    """What a generator def of the module re-yields whole, when its only ``yield`` is one
    ``yield from <iterable>`` (an endless loader, ``while True: yield from trainloader``):
    (the iterable, the def's scope)."""
    binding = model.single_binding(func.value, scope) if isinstance(func, cst.Name) else None
    function = binding.node if binding is not None and binding.kind == "def" else None
    inner = model.scope_of.get(function) if isinstance(function, cst.FunctionDef) else None
    if inner is None:
        return None
    yields = [node for node in own_nodes(function.body) if isinstance(node, cst.Yield)]
    if len(yields) != 1 or not isinstance(yields[0].value, cst.From):
        return None
    return yields[0].value.item, inner


def _returns_first_argument(model: SemanticModel, func: cst.BaseExpression, scope: Scope) -> bool:
    """``func`` names a lambda bound once whose body is its first parameter."""
    binding = model.single_binding(func.value, scope) if isinstance(func, cst.Name) else None
    value = binding.value if binding is not None and binding.kind == "assign" else None
    return isinstance(value, cst.Lambda) and bool(value.params.params) \
        and isinstance(value.body, cst.Name) and value.body.value == value.params.params[0].name.value


def batch_source(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression, scope: Scope,
                 depth: int = 0, passed=None) -> bool:
    """``for ... in expr`` iterates batches of data (arrays), ragged or not: a loader of
    ``jaxfacts.RAGGED_BATCHERS`` whatever its drop flag, a generator function of this module
    that yields slices or arrays (``yield x[s:s + B]``, ``yield jax.random.randint(...), ...``),
    or a list comprehension of such slices (``[(X[i:i + B], Y[i:i + B]) for i in ...]``, also
    a slice of one, ``batches[2:]``), through names, ``enumerate`` / ``zip`` / ``iter`` /
    ``tqdm``, dataset methods and (``passed``: CallingContext.passed_to) what every call gives
    a parameter.  Each item is data for one program, not a program of its own."""
    if depth > 6:
        return False
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        if binding is not None and binding.kind == "param" and passed is not None:
            values = passed(binding) or []
            return bool(values) and all(batch_source(model, flow, value, site.frame.scope, depth + 1, passed)
                                        for value, site in values)
        return binding is not None and binding.kind == "assign" and any(
            batch_source(model, flow, value, value_scope, depth + 1, passed)
            for value, value_scope in bound_values(model, flow, binding))
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return _array_value(model, expr.elt, scope)
    if isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Slice):
        return batch_source(model, flow, expr.value, scope, depth + 1, passed)  # ``batches[2:]``
    if not isinstance(expr, cst.Call):
        return False
    func = expr.func
    qualname = model.qualified_name(func, scope)
    if qualname in RAGGED_BATCHERS and not RAGGED_BATCHERS[qualname].receiver:
        return True
    if isinstance(func, cst.Attribute) and _method_batcher(model, flow, func, scope) is not None:
        return True
    if qualname in PASS_THROUGH or (isinstance(func, cst.Name) and func.value in PASS_THROUGH_BUILTINS
                                    and not model.lookup(func.value, scope)):
        return any(batch_source(model, flow, arg.value, scope, depth + 1, passed) for arg in expr.args)
    if isinstance(func, cst.Attribute) and func.attr.value in DATASET_METHODS:
        return batch_source(model, flow, func.value, scope, depth + 1, passed)
    if any(batch_source(model, flow, returned.value, returned.scope, depth + 1, passed)
           for returned in returned_values(model, flow, expr, scope)):
        return True
    if isinstance(func, cst.Name):
        bindings = model.lookup(func.value, scope)
        if len(bindings) == 1 and bindings[0].kind == "def" and isinstance(bindings[0].node, cst.FunctionDef):
            return _yields_arrays(model, bindings[0].node)
        if len(bindings) == 1 and isinstance(bindings[0].node, cst.ClassDef):
            return ragged_loader_class(bindings[0].node) is not None
    return False


def _yields_arrays(model: SemanticModel, generator: cst.FunctionDef) -> bool:
    """Every ``yield`` of the generator gives a slice or an array made by jax / NumPy (or a
    tuple of them)."""
    scope = model.scope_of.get(generator)
    yields = [node for node in own_nodes(generator.body) if isinstance(node, cst.Yield)]
    return bool(yields) and scope is not None and all(
        y.value is not None and _array_value(model, y.value, scope) for y in yields)


def _array_value(model: SemanticModel, value: cst.BaseExpression, scope: Scope) -> bool:
    """A slice or an array made by jax / NumPy, or a tuple of them: one batch of data."""
    if isinstance(value, cst.Tuple):
        return bool(value.elements) and all(_array_value(model, e.value, scope) for e in value.elements)
    if isinstance(value, cst.Subscript):
        return True
    return isinstance(value, cst.Call) and (
        model.qualified_name(value.func, scope) or "").startswith(("jax.", "numpy."))


def _batcher_call(model: SemanticModel, flow: ValueFlow, call: cst.Call,
                  scope: Scope, passed=None) -> Optional[RaggedSource]:
    """A call of a loader of the table without its drop keyword."""
    func = call.func
    name = model.qualified_name(func, scope)
    entry: Optional[RaggedBatcher] = RAGGED_BATCHERS.get(name or "")
    if entry is not None and entry.receiver:
        entry = None  # a method's key is not a callable name
    if entry is None and isinstance(func, cst.Attribute):
        found = _method_batcher(model, flow, func, scope, passed)
        if found is not None:
            name, entry = found
    if entry is None and isinstance(func, cst.Name):
        subclass = _loader_subclass(model, func, scope)
        if subclass is not None:
            name, entry = subclass
    if entry is None or name is None:
        return None
    position, keyword = entry.batch_size
    positional = [a for a in call.args if a.keyword is None]
    if any(a.star for a in call.args):
        return None
    if entry.drop_keyword:
        if position >= 0 and len(positional) > position + 1:
            return None  # the drop flag may be passed positionally
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == entry.drop_keyword \
                    and not (isinstance(arg.value, cst.Name) and arg.value.value in FALSY):
                return None
    size = positional[position].value if 0 <= position < len(positional) else next(
        (a.value for a in call.args if a.keyword is not None and a.keyword.value == keyword), None)
    if size is None and entry.default_batch_size <= 1:
        return None  # one item per batch, or no batching: never short
    if isinstance(size, cst.Name) and size.value == "None":
        return None
    if isinstance(size, cst.UnaryOperation) or isinstance(size, cst.Integer) and int(size.evaluated_value) <= 1:
        return None  # ``batch_size=-1``: the whole split at once
    sizes = _ints_of(flow, size, scope, passed) if size is not None else None  # ``batch_size=B`` with ``B = 100``
    if sizes and (position > 0 and positional or isinstance(func, cst.Attribute)):
        length = known_length(model, flow, positional[0].value, scope) if position > 0 \
            else _split_size(model, flow, func.value, scope)  # type: ignore[union-attr]
        if length is not None and all(length % size_value == 0 for size_value in sizes):
            return None  # ``np.array_split(np.ones((10, 2)), 2)``: every chunk is as long
    shown = name.replace("tensorflow_datasets.", "tfds.").replace("tensorflow.", "tf.").replace("numpy.", "np.")
    if entry.chunks:
        return RaggedSource(f"a chunk of `{_src(call)}`, whose chunks differ in length by one unless "
                            f"the length divides evenly",
                            "split into equal chunks (np.split on a length padded to a multiple) "
                            "or pad each chunk to the longest")
    if not entry.drop_keyword:
        return RaggedSource(f"a batch of `{_src(call)}` ({shown} batches without dropping the "
                            f"remainder and has no option to), whose last batch is shorter unless the "
                            f"data's length is a multiple of the batch size",
                            "load unbatched and batch with `.batch(B, drop_remainder=True)`, or pad "
                            "the last batch to the batch size and mask the padding")
    return RaggedSource(f"a batch of `{_src(call)}` ({shown} without {entry.drop_keyword}=True), "
                        f"whose last batch is shorter unless the data's length is a multiple of "
                        f"the batch size",
                        f"pass {entry.drop_keyword}=True, or pad the last batch to the batch size "
                        f"and mask the padding")


def _loader_subclass(model: SemanticModel, func: cst.Name, scope: Scope
                     ) -> Optional[tuple[str, RaggedBatcher]]:
    """A class of this module that subclasses a loader of the table and hands its batch size and
    drop flag on by the library's names, defaulting the flag to false (JAX's tutorial
    ``class NumpyLoader(data.DataLoader)`` with ``drop_last=False``): its calls batch like the
    library's."""
    binding = model.single_binding(func.value, scope)
    if binding is None or binding.kind != "class" or not isinstance(binding.node, cst.ClassDef):
        return None
    cls = binding.node
    base = next((q for b in cls.bases if (q := model.qualified_name(b.value, binding.scope)) in RAGGED_BATCHERS
                 and not RAGGED_BATCHERS[q].receiver), None)
    if base is None:
        return None
    entry = RAGGED_BATCHERS[base]
    init = next((m for m in (cls.body.body if isinstance(cls.body, cst.IndentedBlock) else ())
                 if isinstance(m, cst.FunctionDef) and m.name.value == "__init__"), None)
    if init is None:
        return base, entry
    params = {p.name.value: p for p in (*init.params.params, *init.params.kwonly_params)}
    drop = params.get(entry.drop_keyword)
    keyword = entry.batch_size[1]
    if keyword not in params:
        return None
    if drop is None and not _forwards_keywords_to_super(init):
        return None  # the flag is not handed on
    if drop is not None and (drop.default is None
                             or not (isinstance(drop.default, cst.Name) and drop.default.value in FALSY)):
        return None  # it defaults to dropping
    # positions: the subclass's own (``NumpyLoader(ds, 32)``), ``self`` left out
    positional = [p.name.value for p in init.params.params]
    position = positional.index(keyword) - 1 if keyword in positional else -1
    return base, RaggedBatcher(entry.drop_keyword, (position, keyword), entry.docs,
                               default_batch_size=_int_default(params[keyword]))


def _forwards_keywords_to_super(init: cst.FunctionDef) -> bool:
    """``def __init__(self, dataset, batch_size=1, **kwargs): super().__init__(dataset,
    batch_size, **kwargs)``: a keyword the subclass does not name (``drop_last=False``) reaches
    the library's constructor, with the library's default when left out."""
    star = init.params.star_kwarg
    if star is None or not isinstance(star, cst.Param):
        return False
    return any(isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "__init__"
               and isinstance(node.func.value, cst.Call) and isinstance(node.func.value.func, cst.Name)
               and node.func.value.func.value == "super"
               and any(arg.star == "**" and isinstance(arg.value, cst.Name) and arg.value.value == star.name.value
                       for arg in node.args)
               for node in iter_nodes(init.body))


def _int_default(param: cst.Param) -> int:
    return int(param.default.evaluated_value) if isinstance(param.default, cst.Integer) else 0


def known_length(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression,
                  scope: Scope) -> Optional[int]:
    """The length of an array made by ``np.ones((10, 2))`` / ``np.arange(10)`` (reshaped too:
    ``np.arange(60).reshape(12, 5)``) with literal
    sizes, of rows sliced with known bounds (``x[:400]``) or kept by an ellipsis (``x[..., ::32]``), or of a part of ``np.split(x, [400])``
    unpacked into names, or of a torchvision dataset's split (``datasets.MNIST(root, train=False)``),
    written there or bound once to a name."""
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        if binding is None:
            return None
        unpacked = unpacked_call(binding)
        if unpacked is not None:
            return _split_part_length(model, flow, *unpacked, binding.scope)
        value = assigned(binding).value
        if value is None:
            return None
        expr, scope = value, binding.scope
    if isinstance(expr, cst.Subscript) and len(expr.slice) > 1 and isinstance(expr.slice[0].slice, cst.Index) \
            and isinstance(expr.slice[0].slice.value, cst.Ellipsis):
        # ``x[..., ::32]``: the ellipsis stands for the leading axes the index keeps (written for
        # an array of more axes than the trailing indices: ``x[::32]`` would do for one)
        return known_length(model, flow, expr.value, scope)
    if isinstance(expr, cst.Subscript) and expr.slice and isinstance(expr.slice[0].slice, cst.Slice) \
            and expr.slice[0].slice.step is None:
        rows = expr.slice[0].slice
        lower = _int_of(flow, rows.lower, scope) if rows.lower is not None else 0
        upper = _int_of(flow, rows.upper, scope) if rows.upper is not None else None
        return upper - lower if lower is not None and upper is not None and 0 <= lower <= upper else None
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "astype":
        return known_length(model, flow, expr.func.value, scope)  # ``np.ones((64, 4)).astype(np.float32)``
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "reshape" \
            and expr.args and expr.args[0].keyword is None and not expr.args[0].star:
        first = expr.args[0].value  # ``np.arange(60).reshape(12, 5)``, ``x.reshape((12, 5))``
        if isinstance(first, cst.Tuple):
            first = first.elements[0].value if first.elements else None
        rows = _int_of(flow, first, scope) if first is not None else None
        return rows if rows is not None and rows >= 0 else None
    if not isinstance(expr, cst.Call) or not expr.args:
        return None
    qualname = model.qualified_name(expr.func, scope) or ""
    if qualname in TORCHVISION_SPLIT_SIZES:
        return _torchvision_split_length(expr, qualname)
    if qualname in TENSOR_DATASETS and expr.args[0].keyword is None and not expr.args[0].star:
        return known_length(model, flow, expr.args[0].value, scope)  # as long as its first tensor
    if qualname in TORCH_SIZED_CONSTRUCTORS:
        size = _torch_size(expr, TORCH_SIZED_CONSTRUCTORS[qualname])
        return _int_of(flow, size, scope) if size is not None else None
    module, _, last = qualname.rpartition(".")
    drawn = host_random_size(model, expr, qualname, scope)
    if drawn is not None:  # ``np.random.normal(size=(64, 4))``, ``np.random.rand(64, 4)``, ``rng.normal(...)``
        position, keyword = drawn
        shape = argument_value(expr, position if position >= 0 else 0, *((keyword,) if keyword else ()))
    elif module not in ("numpy", "jax.numpy") or last not in SHAPED_CONSTRUCTORS \
            or (last == "arange" and len(expr.args) != 1) or expr.args[0].keyword is not None:
        return None
    else:
        shape = expr.args[0].value
    if isinstance(shape, cst.Tuple) and shape.elements:
        shape = shape.elements[0].value
    return _int_of(flow, shape, scope) if shape is not None else None


def _torch_size(call: cst.Call, positional_dims: bool) -> Optional[cst.BaseExpression]:
    """The first dimension a torch constructor is given: of ``size=``, of the size tuple among
    its positional arguments, or (``positional_dims``) its first positional argument."""
    size = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "size"), None)
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if size is None:
        size = next((v for v in positional if isinstance(v, (cst.Tuple, cst.List))), None)
    if size is None and positional_dims and positional:
        return positional[0]
    if isinstance(size, (cst.Tuple, cst.List)) and size.elements:
        return size.elements[0].value
    return None


def _torchvision_split_length(call: cst.Call, qualname: str) -> Optional[int]:
    """``datasets.MNIST(root, train=False, ...)``: the length of the split its ``train`` flag picks
    (jaxfacts.TORCHVISION_SPLIT_SIZES); None for a flag that is not a literal."""
    train = argument_value(call, 1, "train")
    picked = True if train is None else literal_truth(train)
    if picked is None:
        return None
    train_length, test_length = TORCHVISION_SPLIT_SIZES[qualname]
    return train_length if picked else test_length


def _split_size(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression, scope: Scope,
                depth: int = 0) -> Optional[int]:
    """The number of examples of a whole tensorflow_datasets split the dataset ``expr`` holds
    (jaxfacts.TFDS_SPLIT_SIZES): ``tfds.load("mnist", split="test")`` or
    ``tfds.builder("cifar100").as_dataset("test")``, through names and methods that keep every
    example (``map``, ``shuffle``, ``prefetch``, ``cache``)."""
    if depth > 8:
        return None
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        if binding is None or binding.kind != "assign" or binding.value is None:
            return None
        return _split_size(model, flow, binding.value, binding.scope, depth + 1)
    if not isinstance(expr, cst.Call):
        return None
    func = expr.func
    qualname = model.qualified_name(func, scope)
    if qualname == "tensorflow_datasets.load":
        name, split = argument_value(expr, 0, "name"), argument_value(expr, None, "split")
    elif isinstance(func, cst.Attribute) and func.attr.value == "as_dataset":
        builder = func.value
        if isinstance(builder, cst.Name):
            binding = flow.single(builder, scope)
            builder = binding.value if binding is not None and binding.kind == "assign" else None
        if not (isinstance(builder, cst.Call) and model.qualified_name(builder.func, scope) == "tensorflow_datasets.builder"):
            return None
        name, split = argument_value(builder, 0, "name"), argument_value(expr, 0, "split")
    elif isinstance(func, cst.Attribute) and func.attr.value in LENGTH_KEEPING_DATASET_METHODS:
        return _split_size(model, flow, func.value, scope, depth + 1)
    else:
        return None
    if not (isinstance(name, cst.SimpleString) and isinstance(split, cst.SimpleString)):
        return None
    return TFDS_SPLIT_SIZES.get((name.evaluated_value, split.evaluated_value))


def _split_part_length(model: SemanticModel, flow: ValueFlow, call: cst.Call, position: int, arity: int,
                       scope: Scope) -> Optional[int]:
    """``train, test = np.split(x, [400])``: the length of the part at ``position`` (the last
    part's only when the length of ``x`` is known too)."""
    if model.qualified_name(call.func, scope) not in SPLITTING_AT_INDICES or len(call.args) < 2 \
            or any(a.keyword is not None or a.star for a in call.args[:2]):
        return None
    indices = call.args[1].value
    if not isinstance(indices, (cst.List, cst.Tuple)) or len(indices.elements) != arity - 1:
        return None
    bounds = [_int_of(flow, e.value, scope) for e in indices.elements]
    if position == arity - 1:
        bounds.append(known_length(model, flow, call.args[0].value, scope))
    start = bounds[position - 1] if position > 0 else 0
    end = bounds[position]
    return end - start if start is not None and end is not None and end >= start else None


def _method_batcher(model: SemanticModel, flow: ValueFlow, func: cst.Attribute, scope: Scope,
                    passed=None) -> Optional[tuple[str, RaggedBatcher]]:
    """``ds.batch`` / ``ds.iter`` on a dataset made by a module of the method's
    ``RaggedBatcher.receiver``: the table's key and entry."""
    root = _root_name(model, flow, func.value, scope, passed=passed)
    if root is None:
        return None
    return next(((key, entry) for key, entry in RAGGED_BATCHERS.items()
                 if key.endswith("." + func.attr.value) and any(root.startswith(module + ".") for module in entry.receiver)),
                None)


def _root_name(model: SemanticModel, flow: ValueFlow, expr: cst.BaseExpression, scope: Scope,
               depth: int = 0, passed=None) -> Optional[str]:
    """The qualified name a method chain starts from: ``tf.data.Dataset.range(8).shuffle(4)``
    -> "tensorflow.data.Dataset.range", ``load_dataset("mnist")["train"]`` ->
    "datasets.load_dataset"; through names bound once, and parameters that every call fills
    with values of one root (``passed``: CallingContext.passed_to)."""
    while depth < 8:
        depth += 1
        qualname = model.qualified_name(expr, scope) if isinstance(expr, (cst.Name, cst.Attribute)) else None
        if qualname is not None:
            return qualname
        if isinstance(expr, cst.Call):
            expr = expr.func
        elif isinstance(expr, (cst.Attribute, cst.Subscript)):
            expr = expr.value
        elif isinstance(expr, cst.Name):
            binding = flow.single(expr, scope)
            if binding is not None and binding.kind == "param" and passed is not None:
                values = passed(binding) or []
                roots = {_root_name(model, flow, value, site.frame.scope, depth, passed) for value, site in values}
                return roots.pop() if len(roots) == 1 else None
            if binding is None or binding.kind != "assign" or binding.value is None:
                return None
            expr, scope = binding.value, binding.scope
        else:
            return None
    return None


# ---------------------------------------------------------------------------- generators
def _ragged_generator(model: SemanticModel, flow: ValueFlow, call: cst.Call, scope: Scope,
                      project=None, factory: Optional[tuple[cst.Call, cst.FunctionDef]] = None,
                      context=None) -> Optional[RaggedSource]:
    """``factory``: (the call of a function, the function) that returns ``call``'s instance
    of a loader class it defines, whose flags (``drop_last``) are the function's parameters;
    ``context``: the CallingContext, for a generator method of an instance
    (``data.get_batches()``)."""
    func = call.func
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return None
    if project is not None:
        imported = _imported_generator(model, func, scope, project)
        if imported is not None:
            return imported
    defined_in = scope
    method = None
    if isinstance(func, cst.Attribute):  # ``data.batches(...)`` of a SimpleNamespace
        member = namespace_member(model, flow, func, scope)
        func, defined_in = member if member is not None else (func, scope)
        method = context.instance_method(func, scope) if member is None and context is not None else None
    if method is not None:  # ``data.get_batches()``, ``data`` an instance of a class of the module
        bindings = [b for b in model.lookup(method.name.value, model.scope_of[method].parent) if b.node is method]
        func = method.name
        # the instance fills ``self``: the call's arguments meet the def's parameters after it
        call = call.with_changes(args=[cst.Arg(call.func.value), *call.args])  # type: ignore[attr-defined]
    elif not isinstance(func, cst.Name):
        return None
    else:
        bindings = model.lookup(func.value, defined_in)
    if len(bindings) == 1 and bindings[0].kind == "assign":
        # ``train_iter, n = make_ds(...)`` returning ``iterator, len(X)`` of its nested generator
        values = bound_values(model, flow, bindings[0])
        if len(values) == 1 and isinstance(values[0][0], cst.Name):
            bindings = model.lookup(values[0][0].value, values[0][1])
    if len(bindings) == 1 and isinstance(bindings[0].node, cst.ClassDef):
        found = ragged_loader_class(bindings[0].node)
        if found is None:
            return None
        if found.guard is None:
            return _ragged(func.value, "loader class ", found.way)
        guard = found.guard  # ``stop = n - n % B if drop_last else n``, ``drop_last`` the factory's
        if factory is not None and isinstance(guard, cst.IfExp) and isinstance(guard.test, cst.Name) \
                and _passes_false(factory[0], factory[1], guard.test.value):
            return _flagged(factory[1].name.value, guard.test.value)
        return None
    if len(bindings) != 1 or bindings[0].kind != "def" or not isinstance(bindings[0].node, cst.FunctionDef):
        return None
    generator = bindings[0].node
    found = ragged_loop(generator, outer=outer_assignments(model, generator), parameter_lengths=True)
    if found is None:
        return None
    loop, size, guard, way = found
    if guard is None:
        if way != "past" and _divides_evenly(model, flow, call, generator, loop, size, scope) \
                or _divides_evenly_known(model, flow, loop, generator, size) \
                or not _passed_length_ragged(flow, call, generator, loop, size, scope):
            return None
        return _ragged(func.value, "generator " if isinstance(loop, (cst.For, cst.While)) else "function ", way)
    flag = _flag_of(guard, loop, generator)
    if flag is not None and _passes_false(call, generator, flag):
        return _flagged(func.value, flag)
    return None


def _divides_evenly_known(model: SemanticModel, flow: ValueFlow, loop: cst.CSTNode,
                          generator: "cst.FunctionDef | cst.Module", size: str) -> bool:
    """A ragged loop (counting batches up to the partial one, ``num_batches = full +
    bool(rest)``, or slicing to the end) over data of a known length that its known batch size
    divides: no partial batch (1,024 rows in batches of 128)."""
    outer = outer_assignments(model, generator)
    length = batched_length(loop, generator, outer)
    scope = model.scope_of.get(generator)
    if length is None or scope is None:
        return False
    array = _length_array(length)
    rows = known_length(model, flow, array, scope) if array is not None else None
    if size.isdigit():
        batch: Optional[int] = int(size)
    else:
        assignment = outer(size)
        batch = int(assignment.value.value) if assignment is not None and isinstance(assignment.value, cst.Integer) else None
    return bool(rows) and bool(batch) and rows % batch == 0  # type: ignore[operator]


def _empty_list(value: Optional[cst.BaseExpression]) -> bool:
    """``[]`` or ``list()``."""
    return isinstance(value, cst.List) and not value.elements or \
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "list" and not value.args


def outer_assignments(model: SemanticModel, generator: "cst.FunctionDef | cst.Module"):
    """batches.OuterAssignment for a generator of this module: the one assignment statement of a
    name it reads from the scopes around it (``num_batches = full + bool(rest)``)."""
    scope = model.scope_of.get(generator)

    def outer(name: str) -> Optional[cst.Assign]:
        bindings = model.lookup(name, scope) if scope is not None else []
        node = bindings[0].node if len(bindings) == 1 and bindings[0].kind == "assign" else None
        return node if isinstance(node, cst.Assign) else None
    return outer


def _flagged(name: str, flag: str) -> RaggedSource:
    return RaggedSource(
        f"a batch of `{name}`, which drops the shorter last batch only when `{flag}` is true "
        f"(this call passes it false): the last batch is shorter unless the data's length is a "
        f"multiple of the batch size",
        f"pass `{flag}=True` (or drop the short batch whatever `{flag}` is), or pad it to the "
        f"batch size and mask the padding")


def _divides_evenly(model: SemanticModel, flow: ValueFlow, call: cst.Call, generator: cst.FunctionDef,
                    loop: cst.CSTNode, size: str, scope: Scope) -> bool:
    """The call passes the generator's batch-size parameter a known int that divides the known
    lengths of the arrays of its data argument (``eval_dataloader((xs, ys), batch_size)`` with
    ``xs = np.random.normal(size=(64, 4))`` and ``batch_size = 16``): no batch is short.  The
    data argument is the one whose length the loop batches (``dataloader(key, xs, ys, B)``
    counting ``xs.shape[0]``), else the first."""
    params = [p.name.value for p in (*generator.params.posonly_params, *generator.params.params)]
    if size not in params or not call.args or any(a.star for a in call.args):
        return False
    batch = _int_of(flow, argument_value(call, params.index(size), size), scope)
    measured = _measured_parameter(generator, loop)
    data = argument_value(call, params.index(measured), measured) if measured in params \
        else call.args[0].value if call.args[0].keyword is None else None
    if data is None:
        return False
    arrays = [e.value for e in data.elements] if isinstance(data, (cst.Tuple, cst.List)) else [data]
    # the arrays of one dataset share their length (``np.sin(xs)`` beside ``xs``): one known suffices
    lengths = [n for n in (known_length(model, flow, array, scope) for array in arrays) if n is not None]
    return bool(batch) and bool(lengths) and all(n % batch == 0 for n in lengths)


def _measured_parameter(generator: cst.FunctionDef, loop: cst.CSTNode) -> Optional[str]:
    """The parameter whose length the loop batches: ``P`` of ``len(P)`` / ``P.shape[0]`` (through
    a name the generator assigns from it: ``n_samples = dataset_x.shape[0]``)."""
    length = batched_length(loop, generator)
    if isinstance(length, cst.Name):
        value = assigned_once(generator, length.value)
        length = value if value is not None else length
    array = _length_array(length) if length is not None else None
    return array.value if isinstance(array, cst.Name) else None


def _length_array(length: cst.BaseExpression) -> Optional[cst.BaseExpression]:
    """``x`` of a data length ``len(x)`` or ``x.shape[0]``."""
    if isinstance(length, cst.Call) and length.args:
        return length.args[0].value
    if isinstance(length, cst.Subscript) and isinstance(length.value, cst.Attribute):
        return length.value.value
    return None


def _passed_length_ragged(flow: ValueFlow, call: cst.Call, generator: cst.FunctionDef, loop: cst.CSTNode,
                          size: str, scope: Scope) -> bool:
    """For a loop that stops at a parameter (``def batches(n, seed): ... range(0, n, 32)``): the
    call passes it a known int that the known batch size (a literal, or another parameter the
    call fills with one) does not divide (``batches(80, 1)``).  A count not known here may well
    be a multiple of the batch size: not judged.  True for a loop that stops at the data's own
    length."""
    stop = stop_parameter(loop, generator)
    if stop is None:
        return True
    params = [p.name.value for p in (*generator.params.posonly_params, *generator.params.params)]
    if any(a.star for a in call.args):
        return False

    def passed_int(name: str) -> Optional[int]:
        value = argument_value(call, params.index(name) if name in params else None, name)
        return _int_of(flow, value, scope)
    rows = passed_int(stop)
    batch = int(size) if size.isdigit() else passed_int(size) if size in params else None
    return bool(rows) and bool(batch) and rows % batch != 0  # type: ignore[operator]


def _ints_of(flow: ValueFlow, expr: cst.BaseExpression, scope: Scope, passed=None) -> Optional[list[int]]:
    """The int ``expr`` is (``_int_of``), or, for a parameter of a function (``def
    make_loaders(batch_size)``), the ints every call of the function gives it
    (``make_loaders(batch_size=32)``, or its default): None unless every one is known."""
    value = _int_of(flow, expr, scope)
    if value is not None:
        return [value]
    binding = flow.single(expr, scope) if isinstance(expr, cst.Name) else None
    if binding is None or binding.kind != "param" or passed is None:
        return None
    values = [_int_of(flow, value, site.frame.scope) for value, site in passed(binding) or ()]
    return values if values and all(v is not None for v in values) else None  # type: ignore[return-value]


def _int_of(flow: ValueFlow, expr: Optional[cst.BaseExpression], scope: Scope) -> Optional[int]:
    """A literal int, or a name bound once to one."""
    if isinstance(expr, cst.Name):
        binding = flow.single(expr, scope)
        value = assigned(binding).value if binding is not None else None
        expr = value if value is not None else None
    return int(expr.evaluated_value) if isinstance(expr, cst.Integer) else None


def _ragged(name: str, kind: str = "generator ", way: str = "sliced") -> RaggedSource:
    """``kind``: "generator ", "loader class ", "function " (one returning a list of batches),
    "list " (a list filled with batches in a loop) or "" (another module's generator or loader
    class); ``way``: how its last batch comes out short (batches.RaggedLoop.way)."""
    source = f"the list `{name}` returns" if kind == "function " else \
        f"the list `{name}`, filled in a loop that" if kind == "list " else f"{kind}`{name}`, which"
    if kind == "function ":
        source += ", which"
    where = f"`{name}.{'__next__' if way == 'next' else '__iter__'}`" if kind == "loader class " else f"`{name}`"
    pad = "or pad it to the batch size and mask the padding"
    if way == "next":
        return RaggedSource(
            f"a batch of {kind}`{name}`, whose `__next__` slices its data up to the end without "
            f"dropping the shorter last batch",
            f"stop in {where} once fewer than a batch of items is left, {pad}")
    if way == "remainder":
        return RaggedSource(
            f"a batch of {source} collects items into batches and yields the leftover items "
            f"after its loop as a last, shorter batch",
            f"drop the leftover in {where} (yield only full batches) {pad}")
    if way == "past":
        return RaggedSource(
            f"a batch of {source} counts one batch past the full ones (n // batch_size + 1), "
            f"so the last batch is shorter, or empty when the batch size divides the data",
            f"count only full batches in {where} (n // batch_size) {pad}")
    if way == "counted":
        return RaggedSource(
            f"a batch of {source} counts its batches up to a last, partial one (the count is "
            f"rounded up)",
            f"count only full batches in {where} (n // batch_size) {pad}")
    fix = f"append only full batches to `{name}`" if kind == "list " else \
        f"build only full batches in `{name}`" if kind == "function " else f"drop the short batch in {where}"
    return RaggedSource(
        f"a batch of {source} slices its data up to the end without dropping the shorter last batch (there is "
        f"one whenever the batch size does not divide the data)",
        f"{fix} (loop while start + batch_size <= n) {pad}")


def _imported_generator(model: SemanticModel, func: cst.BaseExpression, scope: Scope,
                        project) -> Optional[RaggedSource]:
    """A generator of another module of the project that is ragged whatever it is passed
    (ModuleSummary.ragged_generators, through the project index)."""
    root = func
    while isinstance(root, cst.Attribute):
        root = root.value
    binding = model.single_binding(root.value, scope) if isinstance(root, cst.Name) else None
    if binding is None or binding.kind != "import":
        return None
    qualname = model.qualified_name(func, scope)
    if qualname is None:
        return None
    from jitlint.project import absolute  # project.py imports jitlint.batches, not this module

    index, module, is_package = project
    qualname = absolute(qualname, module, is_package)
    return _ragged(qualname, "") if index.ragged_generator(qualname) else None


def _flag_of(guard: cst.CSTNode, loop: cst.CSTNode, generator: cst.FunctionDef) -> Optional[str]:
    """The generator's parameter the guard depends on: ``if shuffle and len(b) < B`` or the
    guard nested in ``if shuffle:`` inside the loop."""
    params = {p.name.value for p in (*generator.params.posonly_params, *generator.params.params,
                                     *generator.params.kwonly_params)}
    test = guard.test  # type: ignore[attr-defined]
    if isinstance(guard, cst.IfExp):  # ``stop = n - n % B if drop_last else n``
        return test.value if isinstance(test, cst.Name) and test.value in params else None
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        for side in (test.left, test.right):
            if isinstance(side, cst.Name) and side.value in params:
                return side.value
    stack: list[tuple[cst.CSTNode, Optional[str]]] = [(c, None) for c in children(loop.body)]  # type: ignore[attr-defined]
    while stack:
        node, flag = stack.pop()
        if node is guard:
            return flag
        if isinstance(node, cst.If) and isinstance(node.test, cst.Name) and node.test.value in params:
            stack.extend((c, node.test.value) for c in children(node.body))
            continue
        stack.extend((c, flag) for c in children(node))
    return None


def _passes_false(call: cst.Call, generator: cst.FunctionDef, flag: str) -> bool:
    """The call gives ``flag`` a literal False / None, or leaves it at such a default."""
    params = [*generator.params.posonly_params, *generator.params.params]
    names = [p.name.value for p in params]
    value: Optional[cst.BaseExpression] = None
    given = False
    for index, arg in enumerate(a for a in call.args if a.keyword is None):
        if arg.star:
            return False
        if index < len(names) and names[index] == flag:
            value, given = arg.value, True
    for arg in call.args:
        if arg.star == "**":
            return False
        if arg.keyword is not None and arg.keyword.value == flag:
            value, given = arg.value, True
    if not given:
        param = next((p for p in (*params, *generator.params.kwonly_params) if p.name.value == flag), None)
        value = param.default if param is not None else None
    return isinstance(value, cst.Name) and value.value in FALSY
