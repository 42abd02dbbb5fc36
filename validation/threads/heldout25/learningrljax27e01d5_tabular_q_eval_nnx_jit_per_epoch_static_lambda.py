# source: https://github.com/jimma2-del/learning-rl-jax/commit/27e01d59b0c3644194b45329d84a5f035984cedd
# expect: jit-in-loop-or-body at line 1818; shape-churn at line 246
# runtime: COMPILES 5 CALLS 6
# why: each epoch's evaluation builds nnx.jit(evaluate_episodes, static_argnums=...) anew and passes a fresh lambda as a static argument, so evaluate_episodes compiles on every one of the 3 epochs; separately, the replay-buffer prefill returns insert_i = 0 (a weakly typed Python int) that train_epoch hands back as int32, so train_epoch compiles twice: 5 compiles for 6 calls.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")



import types as _types  # scaffolding
_GENERAL_MAP_TXT = '-01   -01   -01   -01   -01   -01   -01\n...   ...   ...   ...   WWW   ...   ...\n\n-01   -01   -01   -01   -01   -01   -01\n...   WWW   ...   ...   WWW   ...   ...\n\n-01   -01   -01   -01   -01   -01   -01\n...   WWW   ...   ...   WWW   ...   ...\n\n-01   -01   -00   -01   -01   +08   -01\n...   WWW   END   ...   WWW   END   ...\n\n-01   -01   -01   -01   -01   -01   -01\n...   WWW   ...   ...   WWW   ...   ...\n\n-01   -01   -01   -01   -00   -01   -01\n...   WWW   ...   ...   END   ...   ...\n\n-01   -01   -01   -01   -01   -01   -01\n...   WWW   ...   ...   ...   ...   ...'  # scaffolding: core/envs/gridworld/maps/general.txt

# the repository's core package at the commit's parent (unchanged by the commit), flattened

# ---- core/utils/math.py
import jax
import jax.numpy as jnp

def inv_softplus(x: jax.Array) -> jax.Array:
    THRESHOLD = 20
    safe_x = jnp.where(x > THRESHOLD, 1.0, x)
        # extra sanitization due to issue with jnp.where and NaNs for gradients
    return jnp.where(x > THRESHOLD, x, jnp.log(jnp.exp(safe_x) - 1))

def normal_entropy(sigma):
  return (jnp.log(2 * jnp.pi * sigma**2) + 1) / 2
# ---- core/utils/func_utils.py
from typing import Callable, TypeVar, Any

import inspect
import functools

TReturn = TypeVar('TReturn')

def try_call(possibly_callable: Callable[..., TReturn] | TReturn, *args: Any, **kwargs: Any) -> TReturn:
    if callable(possibly_callable): return possibly_callable(*args, **kwargs)
    return possibly_callable

def optionally_pass(func: Callable[..., TReturn], *opt_args: Any, **opt_kwargs: Any) -> Callable[..., TReturn]:
    params = inspect.signature(func).parameters

    # check for *args or **kwargs in params
    accepts_all_kwargs = any(p.kind == inspect.Parameter.VAR_KEYWORD for p in params.values())
    accepts_all_args = any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in params.values())

    # all positional params (POSITIONAL_ONLY & POSITIONAL_OR_KEYWORD)
    pos_params = [ (name, p) for name, p in params.items()
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD) ]

    if not accepts_all_kwargs: # only pass opt_kwargs if present; if accepts **kwargs, pass all
        opt_kwargs = {k: v for k, v in opt_kwargs.items() if k in params}
    
    def func_with_opt_args(*args: Any, **kwargs: Any) -> TReturn:
        all_named_args_keys = set(kwargs).union(set(opt_kwargs)) # set(dict) gives keys
    
        # final list of all positional args passed
        final_pos_args = list(args) # args are definitely passed, we may add more from opt_args
    
        if not accepts_all_args: # only pass opt_args if space; if accepts *args, pass all
            opt_args_i = 0

            # iterate through pos_params to find which slots are still open
            for slot, (name, p) in enumerate(pos_params):
                if opt_args_i >= len(opt_args): break  # no more optional args to place
                if slot < len(args): continue # slots 0 to len(args)-1 are filled by args already
                if name in all_named_args_keys: continue  # already covered by a kwarg
    
                # free slot found -> fill
                if p.kind == inspect.Parameter.POSITIONAL_ONLY:
                    final_pos_args.append(opt_args[opt_args_i])
                else: # POSITIONAL_OR_KEYWORD; pass as kwarg to avoid index confusion
                    opt_kwargs[name] = opt_args[opt_args_i]

                opt_args_i += 1
    
        else: # accepts *args; pass all
            final_pos_args.extend(opt_args)
    
        return func(*final_pos_args, **{**opt_kwargs, **kwargs})

    return func_with_opt_args
# ---- core/utils/batch_utils.py
import jax
import jax.numpy as jnp

import chex

def shape_matches_excluding_batch_dims(unbatched_shape, x_shape):
    if len(unbatched_shape) == 0: return True
    if len(unbatched_shape) > len(x_shape): return False
    return x_shape[-len(unbatched_shape):] == unbatched_shape

def shape_is_batched(unbatched_shape, x_shape):
    return len(x_shape) > len(unbatched_shape) \
        and shape_matches_excluding_batch_dims(unbatched_shape, x_shape)

def is_batched(unbatched_shape, x):
    return shape_is_batched(unbatched_shape, x.shape)

def get_shape_batch_dims(unbatched_shape, x_shape):
    if len(unbatched_shape) == 0: return x_shape
    assert shape_matches_excluding_batch_dims(unbatched_shape, x_shape)
    return x_shape[:-len(unbatched_shape)]

def get_batch_dims(unbatched_shape, x):
    return get_shape_batch_dims(unbatched_shape, x.shape)

def get_tree_batch_dims(unbatched_shapes_dtypes, x):
    chex.assert_trees_all_equal_structs(x, unbatched_shapes_dtypes,
        custom_message="'x' must have the same treedef (structure) as 'unbatched_shapes_dtypes'.")

    assert len(jax.tree.leaves(x)) != 0, "Trees cannot be empty."
    
    assert jax.tree.all(jax.tree.map(
        lambda shape_dtype, x_leaf: shape_matches_excluding_batch_dims(shape_dtype.shape, x_leaf.shape), 
        unbatched_shapes_dtypes, x
    )), "Leaves of 'x' must have the shape defined in the corresponding leaf of 'unbatched_shapes_dtypes'."

    batch_dims_shapes_dtypes = jax.tree.map(
        lambda unbatched_shape_dtype, x_leaf: jax.ShapeDtypeStruct(
            shape = get_batch_dims(unbatched_shape_dtype.shape, x_leaf),
            dtype = unbatched_shape_dtype.dtype
        ),
        unbatched_shapes_dtypes, x
    )

    batch_dims_shapes_dtypes_leaves = jax.tree.leaves(batch_dims_shapes_dtypes)

    assert all([ batch_dims_shape_dtype.shape == batch_dims_shapes_dtypes_leaves[0].shape 
            for batch_dims_shape_dtype in batch_dims_shapes_dtypes_leaves ] ), \
        "Leaf batch dimensions are not the same."

    return batch_dims_shapes_dtypes_leaves[0].shape


def flatten_batched_tree(unbatched_shapes_dtypes, x) -> jax.Array:
    """Flattens a batched PyTree into a single array while preserving leading batch axes.
    
    Args:
        unbatched_shapes_dtypes: A PyTree of jax.ShapeDtypeStruct leaves, eg. from jax.eval_shape().
        x: A PyTree with the same structure as unbatched_shapes_dtypes and leaves with corresponding shapes, 
            but potentially with extra leading batch axes.
        
    Returns:
        A jax.Array of shape (*batch_dims, total_flattened_size)."""

    leaves_x = jax.tree.leaves(x)

    if not leaves_x:
        return jnp.array([]) # convention is to return a empty 1D array if empty PyTree

    batch_dims = get_tree_batch_dims(unbatched_shapes_dtypes, x)

    return jnp.concatenate([ leaf.reshape((*batch_dims, -1)) for leaf in leaves_x ], axis=-1)

def get_tree_vmap_dim(tree):
    """Finds the length of the leading axis of the PyTree leaves, ensuring that these lengths are all equal.
    This dimension would be the batch dimension if passed into a vmap'ed function.
    """
    
    leaves = jax.tree.leaves(tree)
    assert leaves, "`tree` cannot be empty"
    dim = leaves[0].shape[0] # all leaves must be arrays to be usable in vmap

    # assert all([ leaf.shape[0] == leaves[0].shape[0] for leaf in leaves ] ), \
    #     "Leaf batch dimensions are not the same."
        # NOT TRUE for mjx warp backend

    return dim
# ---- core/utils/replay_buffer.py
from chex import dataclass
import chex
from jax.typing import ArrayLike
from typing import Any, Generic, TypeVar

import functools

import jax
from jax import flatten_util
import jax.numpy as jnp

# from core.utils.batch_utils import get_tree_batch_dims  # scaffolding: flattened into this file

TReplayBufferItem = TypeVar("TReplayBufferItem")

@dataclass(frozen=True)
class ReplayBufferState(Generic[TReplayBufferItem]):
    data: TReplayBufferItem
    insert_i: ArrayLike
    filled_len: ArrayLike

class ReplayBuffer(Generic[TReplayBufferItem]):
    def __init__(self, item_shapes_dtypes, capacity: int = 10000) -> None:
        """item_shapes_dtypes: A PyTree of jax.ShapeDtypeStruct leaves, eg. from jax.eval_shape()."""
        self.item_shapes_dtypes = item_shapes_dtypes
        self.capacity = capacity

    #@functools.partial(jax.jit, static_argnames=('self'))
    def init(self) -> ReplayBufferState[TReplayBufferItem]:

        data = jax.tree.map(
            lambda shape_dtype: jnp.empty((self.capacity, *shape_dtype.shape), dtype=shape_dtype.dtype),
            self.item_shapes_dtypes
        )

        return ReplayBufferState(
            data = data,
            insert_i = jnp.array(0, dtype=jnp.int32),
            filled_len = jnp.array(0, dtype=jnp.int32)
        )

    #@functools.partial(jax.jit, static_argnames=('self'))
    def insert(self, state: ReplayBufferState[TReplayBufferItem], items: TReplayBufferItem) \
        -> ReplayBufferState[TReplayBufferItem]:
        '''samples: farther back means newer'''
        
        # flatten/add batch axis if number of batch axes is not 1
        items = jax.tree.map(
            lambda shape_dtype, items_leaf: items_leaf.reshape((-1, *shape_dtype.shape)),
            self.item_shapes_dtypes, items
        )

        insert_n = get_tree_batch_dims(self.item_shapes_dtypes, items)[0]

        if insert_n > self.capacity:
            return ReplayBufferState(
                data = jax.tree.map(lambda x: x[insert_n - self.capacity : ], items),
                insert_i = 0,
                filled_len = self.capacity
            )

        insert_indices = (state.insert_i + jnp.arange(insert_n)) % self.capacity

        data = jax.tree.map(lambda data_leaf, items_leaf: data_leaf.at[insert_indices].set(items_leaf), 
            state.data, items)

        return ReplayBufferState(
            data = data,
            insert_i = insert_indices[-1] + 1,
            filled_len = jnp.clip(state.filled_len + insert_n, max=self.capacity)
        )

    #@functools.partial(jax.jit, static_argnames=('self', 'num_samples'))
    def sample(self, key: chex.PRNGKey, state: ReplayBufferState[TReplayBufferItem], num_samples: int) \
        -> TReplayBufferItem:
        indices = jax.random.randint(key, (num_samples, ), minval=0, maxval=state.filled_len)
        return jax.tree.map(lambda x: x[indices], state.data)

if __name__ == "__main__":
    @dataclass(frozen=True)
    class Sample:
        a: ArrayLike
        b: ArrayLike

    buffer = ReplayBuffer[Sample](jax.eval_shape(lambda: Sample(a=1, b=2)), 8)
    buffer_state = buffer.init()
    buffer_state = buffer.insert(buffer_state, Sample(a=jnp.array((1,2,3)), b=jnp.array((11,12,13))))
    buffer_state = buffer.insert(buffer_state, Sample(a=jnp.array((100,200,300)), b=jnp.array((1100,1200,1300))))
    print(buffer_state.data)

    key = jax.random.key(100)

    #print(jax.random.randint(key, (10, ), minval=0, maxval=5))

    print(buffer.sample(key, buffer_state, 20))
# ---- core/envs/base.py
from typing import Any, Generic
from typing_extensions import TypeVar
from abc import ABC, abstractmethod

import chex

import functools

import jax
from jax.typing import ArrayLike

import jax.numpy as jnp

# from core.utils.math import inv_softplus, normal_entropy  # scaffolding: flattened into this file
# from core.utils.batch_utils import get_tree_batch_dims  # scaffolding: flattened into this file

TSpaceElement = TypeVar("TSpaceElement")

class Space(Generic[TSpaceElement]):
    """Defines bounds and structure, such as for observations/actions. 

    Similar to gymnasium.Space, but more flexible as it allows elements to be arbitrary PyTrees,
        rather than requiring custom Tuple/Dict spaces.

    Integer bounds denote discrete values, while float bounds denote continuous values.
    Float bounds can be infinite to indicate an unbounded leaf.
        However, sampling is currently not supported for unbounded leaves.

    `low`: Lower bound, inclusive.
    `high`: Upper bound. Inclusive for integer type, exclusive for float type.

    `treedef`: Jax PyTree treedef for an element of the space. Can be used to unflatten elements.
    `shapes_dtypes`: PyTree of `jax.ShapeDtypeStruct`, storing the shape and dtype of each leaf.
    """

    def __init__(self, low: TSpaceElement, high: TSpaceElement) -> None:
        chex.assert_trees_all_equal_structs(low, high,
            custom_message="`low` and `high` must have the same treedef (structure).")

        self.treedef = jax.tree.structure(low)

        self.shapes_dtypes = jax.tree.map(lambda cur_low, cur_high: jax.ShapeDtypeStruct(
            dtype = jnp.result_type(cur_low, cur_high),
            shape = jnp.broadcast_shapes(cur_low.shape, cur_high.shape)
        ), low, high)

        self.low = jax.tree.map(
            lambda leaf, shape_dtype: jnp.broadcast_to(leaf, shape_dtype.shape).astype(shape_dtype.dtype),
            low, self.shapes_dtypes
        )

        self.high = jax.tree.map(
            lambda leaf, shape_dtype: jnp.broadcast_to(leaf, shape_dtype.shape).astype(shape_dtype.dtype),
            high, self.shapes_dtypes
        )

    def contains(self, x: TSpaceElement, batched: bool = False) -> bool:
        """Check if `x` is a valid member of this space. 
        If batched=True, disregards leading batch dimensions"""

        if jax.tree.structure(x) != self.treedef: return False

        def leaf_matches(x_leaf, cur_low, cur_high, shape_dtype):
            shape_compare_start = -len(shape_dtype.shape) if batched else 0
            if x_leaf.shape[shape_compare_start:] != shape_dtype.shape: return False

            if not bool(jnp.all(x_leaf >= cur_low)): return False

            if jnp.issubdtype(shape_dtype.dtype, jnp.integer):
                if not jnp.issubdtype(x_leaf.dtype, jnp.integer): return False
                if not bool(jnp.all(x_leaf <= cur_high)): return False
            else:
                if not jnp.issubdtype(x_leaf.dtype, jnp.floating): return False
                if not bool(jnp.all(x_leaf < cur_high)): return False

        return jax.tree.all(leaf_matches, x, self.low, self.high, self.shapes_dtypes)

    #@functools.partial(jax.jit, static_argnames=('self'))
    def sample(self, key: chex.PRNGKey) -> TSpaceElement:
        """Samples a single element from the space, according to a uniform distribution.
        
        Continuous (jnp.floating) items can be unbounded by setting 
        `low` to `-jnp.inf` and/or `high` to `jnp.inf`.
            - If one bound is infinite, samples from a standard exponential distribution.
            - If both bounds are infinite, samples from standard normal distribution."""

        keys = jax.random.split(key, num=self.treedef.num_leaves)
        keys_tree = jax.tree.unflatten(self.treedef, keys)

        def sample_leaf(cur_low, cur_high, shape_dtype: jax.ShapeDtypeStruct, key: chex.PRNGKey):

            if jnp.issubdtype(shape_dtype.dtype, jnp.integer):
                return jax.random.randint(key, shape=shape_dtype.shape, dtype=shape_dtype.dtype,
                    minval=cur_low, maxval=cur_high + 1)

            else:
                sample = jax.random.uniform(key, shape=shape_dtype.shape, dtype=shape_dtype.dtype,
                    minval=cur_low, maxval=cur_high)

                exp = jax.random.exponential(key, shape=shape_dtype.shape)
                sample = jnp.where(jnp.isinf(cur_low), cur_high - exp, sample)
                sample = jnp.where(jnp.isinf(cur_high), cur_low + exp, sample)

                sample = jnp.where(jnp.logical_and(jnp.isinf(cur_low), jnp.isinf(cur_high)), 
                    jax.random.normal(key, shape=shape_dtype.shape), sample)

                return sample

        return jax.tree.map(sample_leaf, self.low, self.high, self.shapes_dtypes, keys_tree)

    def squash_continuous_to_bounds(self, x: TSpaceElement) -> TSpaceElement:
        """Squashes unbounded real values (-inf, inf) to the bounds defined by the Space.
        Ignores discrete values."""

        def map_func(leaf, cur_low, cur_high, shape_dtype: jax.ShapeDtypeStruct):
            if jnp.issubdtype(shape_dtype.dtype, jnp.integer): return leaf

            # extra sanitization due to issue with jnp.where and NaNs for gradients
            safe_cur_low = jnp.where(jnp.isinf(cur_low), 1, cur_low)
            safe_cur_high = jnp.where(jnp.isinf(cur_high), 2, cur_high)

            leaf = jnp.where(jnp.isinf(cur_low), safe_cur_high - jax.nn.softplus(leaf), leaf)
            leaf = jnp.where(jnp.isinf(cur_high), safe_cur_low + jax.nn.softplus(leaf), leaf)

            leaf = jnp.where(jnp.logical_or(jnp.isinf(cur_low), jnp.isinf(cur_high)), 
                leaf,
                safe_cur_low + jnp.tanh(leaf)*(safe_cur_high - safe_cur_low)
            )

            return leaf

        return jax.tree.map(map_func, x, self.low, self.high, self.shapes_dtypes)

    def unsquash_continuous_from_bounds(self, x: TSpaceElement) -> TSpaceElement:
        """Undos the `space.squash_continuous_to_bounds(x)` method."""
        
        def map_func(leaf, cur_low, cur_high, shape_dtype: jax.ShapeDtypeStruct):
            if jnp.issubdtype(shape_dtype.dtype, jnp.integer): return leaf

            # extra sanitization due to issue with jnp.where and NaNs for gradients
            safe_cur_low = jnp.where(jnp.isinf(cur_low), 1, cur_low)
            safe_cur_high = jnp.where(jnp.isinf(cur_high), 2, cur_high)

            leaf = jnp.where(jnp.isinf(cur_low), 
                inv_softplus(jnp.where(jnp.isinf(cur_low), safe_cur_high - leaf, 10)), 
                leaf
            )

            leaf = jnp.where(jnp.isinf(cur_high), 
                inv_softplus(jnp.where(jnp.isinf(cur_high), leaf - safe_cur_low, 10)), 
                leaf
            )

            any_inf = jnp.logical_or(jnp.isinf(cur_low), jnp.isinf(cur_high))
            safe_ranges = jnp.where(any_inf, 1, safe_cur_high - safe_cur_low)
            leaf = jnp.where(any_inf, 
                leaf,
                jnp.arctanh(jnp.where(any_inf, 0.5, (leaf - safe_cur_low) / safe_ranges))
            )

            return leaf

        return jax.tree.map(map_func, x, self.low, self.high, self.shapes_dtypes)

    def sample_distribution(self, key: chex.PRNGKey, distribution: TSpaceElement, 
            ignore_continuous_bounds=False, deterministic=False, log_stds=False) -> TSpaceElement:
        """Samples a single element from the space, according to the given distribution.
        
        The distribution should have the same treedef as the Space. Each leaf should have the same shape,
        but with an extra trailing axis as follows:

            - If discrete (jnp.integer): values will be sampled according to a categorical distribution.
                Trailing axis should have size equal to the maximum number of possible values 
                    for any feature in the Space in that leaf: `max(high - low + 1)`
                Values along trailing axis should be logits. The 0th logit should correspond to the
                    mininum possible value of that feature. Pad with `-jnp.inf` at the end as necessary.

            If continuous (jnp.floating): values will be sampled according to a normal distribution.
                Trailing axis should have size 2. The first element should be the mean, 
                    and the second should be the standard deviation.
                If bounded, values will be clamped using the softplus (one side bounded) 
                    or tanh (both sides bounded) function.

        `ignore_continuous_bounds`: If True, assumes all continuous values are unbounded.
            Useful, eg. for raw network outputs, before softplus or tanh.

        `deterministic`: If True, takes the mode.
            Discrete (jnp.integer) leaves: selects the choice with the highest probability.
            Continuous (jnp.floating) leaves: takes the mean of the distribution.

        `log_stds`: If True, treats stds as log stds: uses exp(feature[1]) as the standard deviation.
        """

        keys = jax.random.split(key, num=self.treedef.num_leaves)
        keys_tree = jax.tree.unflatten(self.treedef, keys)

        def sample_leaf(cur_dist, cur_low, shape_dtype: jax.ShapeDtypeStruct, key: chex.PRNGKey):
            if jnp.issubdtype(shape_dtype.dtype, jnp.integer):
                if deterministic: indices = jnp.argmax(cur_dist, axis=-1)
                else: indices = jax.random.categorical(key, cur_dist, axis=-1)

                return cur_low + indices
            else:
                if deterministic: z = 0
                else: z = jax.random.normal(key, shape=shape_dtype.shape, dtype=shape_dtype.dtype)

                std = jnp.exp(cur_dist[..., 1]) if log_stds else cur_dist[..., 1]

                return cur_dist[..., 0] + std*z

        sample = jax.tree.map(sample_leaf, distribution, self.low, self.shapes_dtypes, keys_tree)

        if not ignore_continuous_bounds:
            sample = self.squash_continuous_to_bounds(sample)

        return sample

    def log_probabilities(self, x: TSpaceElement, distribution: TSpaceElement, 
            ignore_continuous_bounds=False, log_stds=False) -> TSpaceElement:
        """Computes the individual log probability of sampling each feature of `x` from `distribution`.
        See `space.sample_distribution` for details on the structure of `distribution`.

        `ignore_continuous_bounds`: If True, assumes all continuous values are unbounded.
            Useful, eg. for raw network outputs, before softplus or tanh.

        `log_stds`: If True, treats stds as log stds: uses exp(feature[1]) as the standard deviation.
        """

        def leaf_log_probabilities(x_leaf, cur_dist, cur_low, shape_dtype: jax.ShapeDtypeStruct):
            if jnp.issubdtype(shape_dtype.dtype, jnp.integer):
                all_log_probs = jax.nn.log_softmax(cur_dist, axis=-1)
                dist_is = x_leaf - cur_low
                return jnp.take_along_axis(all_log_probs, dist_is[..., None], axis=-1).squeeze(axis=-1)
            else: 
                std = jnp.exp(cur_dist[..., 1]) if log_stds else cur_dist[..., 1]
                return jax.scipy.stats.norm.logpdf(x_leaf, loc=cur_dist[..., 0], scale=std)

        if not ignore_continuous_bounds:
            x = self.unsquash_continuous_from_bounds(x)

        return jax.tree.map(leaf_log_probabilities, x, distribution, self.low, self.shapes_dtypes)

    def log_probability(self, x: TSpaceElement, distribution: TSpaceElement, 
            ignore_continuous_bounds=False, log_stds=False) -> ArrayLike:
        """Computes the total log probability of sampling `x` from `distribution`, assuming features are independent.
        See `space.sample_distribution` for details on the structure of `distribution`.

        `ignore_continuous_bounds`: If True, assumes all continuous values are unbounded.
            Useful, eg. for raw network outputs, before softplus or tanh.

        `log_stds`: If True, treats stds as log stds: uses exp(feature[1]) as the standard deviation.
        """

        log_probabilities = self.log_probabilities(x, distribution, ignore_continuous_bounds, log_stds)

        log_probabilities = jax.tree.map(
            lambda leaf, s_dt: jnp.sum(leaf, axis=tuple(range(-len(s_dt.shape), 0))),
            log_probabilities, self.shapes_dtypes
        )

        return jax.tree.reduce(lambda tot, cur: tot + cur, log_probabilities)

    def entropies(self, distribution: TSpaceElement, log_stds=False) -> ArrayLike:
        """Computes the individual entropy of each feature of `distribution`.
        See `space.sample_distribution` for details on the structure of `distribution`.

        `log_stds`: If True, treats stds as log stds: uses exp(feature[1]) as the standard deviation.
        """

        def leaf_entropies(cur_dist, shape_dtype: jax.ShapeDtypeStruct):
            if jnp.issubdtype(shape_dtype.dtype, jnp.integer):
                log_probs = jax.nn.log_softmax(cur_dist, axis=-1)
                log_probs = jnp.where(jnp.isneginf(log_probs), 0, log_probs) # handle 0 probability
                return -jnp.sum(jnp.exp(log_probs) * log_probs, axis=-1)
            else: 
                std = jnp.exp(cur_dist[..., 1]) if log_stds else cur_dist[..., 1]
                return normal_entropy(std)

        return jax.tree.map(leaf_entropies, distribution, self.shapes_dtypes)

TEnvState = TypeVar("TEnvState")
TEnvObs = TypeVar("TEnvObs")
TEnvAction = TypeVar("TEnvAction")
TRenderFrame = TypeVar("TRenderFrame", default=None)

class Environment(ABC, Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame]):
    """Abstract base class for environments."""

    @abstractmethod
    def reset(self, key: chex.PRNGKey) -> tuple[TEnvState, dict[Any, Any]]:
        """Performs resetting of environment.
        Returns: state, info"""

    @abstractmethod
    def step(self, key: chex.PRNGKey, state: TEnvState, action: TEnvAction) \
        -> tuple[TEnvState, jax.Array, jax.Array, jax.Array, dict[Any, Any]]:
        """Performs step transitions in the environment.
        Returns: state, reward, terminated, truncated, info"""

    @abstractmethod
    def get_obs(self, key: chex.PRNGKey, state: TEnvState) -> TEnvObs:
        """Applies observation function to state."""

    def render(self, state: TEnvState, action: ArrayLike) -> TRenderFrame:
        """Compute a render frame from the state-action pair.
        Intended for human interpretation (visualization, debugging); should not be used as a policy input.
        Implementations may or may not be jittable.
        Unimplemented by default, returning None."""
        return None

    @property
    @abstractmethod
    def observation_space(self) -> Space[TEnvObs]:
        """Observation space of the environment."""

    @property
    @abstractmethod
    def action_space(self) -> Space[TEnvAction]:
        """Action space of the environment."""

    @property
    def name(self) -> str:
        """Environment name."""
        return type(self).__name__
# ---- core/envs/wrappers.py
from typing import Any, Generic, Callable
from typing_extensions import TypeVar
from abc import ABC, abstractmethod

import chex

import functools

import jax
from jax.typing import ArrayLike

import jax.numpy as jnp

# from .base import Environment, Space  # scaffolding: flattened into this file
# from core.utils.batch_utils import get_tree_vmap_dim  # scaffolding: flattened into this file

TEnvState = TypeVar("TEnvState")
TEnvObs = TypeVar("TEnvObs")
TEnvAction = TypeVar("TEnvAction")
TRenderFrame = TypeVar("TRenderFrame", default=None)

class Wrapper(
    Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame]
):
    """Abstract base class for wrappers, which modify environment attributes in some way."""

    def __init__(self, env: Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame]):
        self.env = env

    @property
    def unwrapped(self) -> Environment: # there is no way to type this properly
        """Get the underlying Environment, without any wrappers."""

        if isinstance(self.env, Wrapper):
            return self.env.unwrapped

        return self.env

    # forwards all Environment methods/properties to the internal env by default

    def reset(self, key: chex.PRNGKey) -> tuple[TEnvState, dict[Any, Any]]:
        return self.env.reset(key)

    def step(self, key: chex.PRNGKey, state: TEnvState, action: TEnvAction) \
        -> tuple[TEnvState, jax.Array, jax.Array, jax.Array, dict[Any, Any]]:
        return self.env.step(key, state, action)

    def get_obs(self, key: chex.PRNGKey, state: TEnvState) -> TEnvObs:
        return self.env.get_obs(key, state)

    def render(self, state: TEnvState, action: ArrayLike) -> TRenderFrame:
        return self.env.render(state, action)

    @property
    def observation_space(self) -> Space[TEnvObs]:
        return self.env.observation_space

    @property
    def action_space(self) -> Space[TEnvAction]:
        return self.env.action_space

    @property
    def name(self) -> str:
        """Environment name."""
        return self.env.name

    def __getattr__(self, name):
        return getattr(self.env, name)

class ObsRangeNormalizeWrapper(
    Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    Wrapper[TEnvState, TEnvObs, TEnvAction, TRenderFrame]
):
    """Normalizes observations to [-1, 1) using the range (low, high) of the observation space.
    Ignores unbounded (infinite low/high) leaves, keeping the values unaltered.
    """

    def __init__(self, 
        env: Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
        normalize_obs_space: Space[TEnvObs] | None = None
    ):
        super().__init__(env)

        self.normalize_obs_space: Space[TEnvObs] = normalize_obs_space \
            if normalize_obs_space is not None else super().observation_space

        chex.assert_trees_all_equal_structs(env.observation_space.low, self.normalize_obs_space.low,
            "`ranges` treedef does not match with `env.observation space`.")

        self.obs_ranges = jax.tree.map(lambda high, low: high - low, 
            self.normalize_obs_space.high, self.normalize_obs_space.low)
        self.obs_centers = jax.tree.map(lambda high, low: (high+low) / 2, 
            self.normalize_obs_space.high, self.normalize_obs_space.low)

    def get_obs(self, key: chex.PRNGKey, state: TEnvState) -> jax.Array:
        obs = super().get_obs(key, state)

        normalized = jax.tree.map(lambda obs, center, range: (obs-center) / range * 2, 
            obs, self.obs_centers, self.obs_ranges)

        return jax.tree.map(lambda normed, orig: jnp.where(jnp.isfinite(normed), normed, orig),
            normalized, obs)

    @property
    def observation_space(self) -> Space[TEnvObs]:
        return Space(
            low = jax.tree.map(lambda leaf, range: jnp.where(jnp.isfinite(range), -jnp.ones_like(leaf), leaf),
                self.normalize_obs_space.low, self.obs_ranges),
            high = jax.tree.map(lambda leaf, range: jnp.where(jnp.isfinite(range), jnp.ones_like(leaf), leaf),
                self.normalize_obs_space.high, self.obs_ranges)
        )

# (class JitWrapper cut: unused here)

class VmapWrapper(
    Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    Wrapper[TEnvState, TEnvObs, TEnvAction, TRenderFrame]
):
    """Vmaps the `reset`, `step`, and `get_obs` methods.
    Does not alter `observation_space` or `action_space` as the batch size is unknown.
    Does not alter the `render` method as it may not be jittable.
    Supports both single and batched PRNG keys."""

    def reset(self, key: chex.PRNGKey, num: int | None = None) -> tuple[TEnvState, dict[Any, Any]]:
        """If a single key is given, returns a batch of size `num`."""
        if jnp.isscalar(key): key = jax.random.split(key, num)
        return jax.vmap(super().reset)(key)

    def step(self, key: chex.PRNGKey, state: TEnvState, action: TEnvAction) \
            -> tuple[TEnvState, jax.Array, jax.Array, jax.Array, dict[Any, Any]]:
        if jnp.isscalar(key): key = jax.random.split(key, get_tree_vmap_dim(state))
        return jax.vmap(super().step)(key, state, action)

    def get_obs(self, key: chex.PRNGKey, state: TEnvState) -> TEnvObs:
        if jnp.isscalar(key): key = jax.random.split(key, get_tree_vmap_dim(state))
        return jax.vmap(super().get_obs)(key, state)

UNRESET_STATE_INFO_KEY = 'unreset_state'

class AutoResetWrapper(
    Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    Wrapper[TEnvState, TEnvObs, TEnvAction, TRenderFrame]
):
    """Automatically resets the environment if terminated or truncated, returning the resetted state as the next state
    Places the original, unresetted state into `info[UNRESET_STATE_INFO_KEY]` (useful eg. for truncation)
        This will be the same as the returned new_state if not terminated and not truncated.

    In very rare cases where resetting the environment is extremely expensive, for vectorization, 
        try `VmapConditionallyResetWrapper(env)` instead of `VmapWrapper(AutoResetWrapper((env))`.
    """

    UNRESET_STATE_INFO_KEY = UNRESET_STATE_INFO_KEY

    def reset(self, key: chex.PRNGKey) -> tuple[TEnvState, dict[Any, Any]]:
        state, info = super().reset(key)
        info[self.UNRESET_STATE_INFO_KEY] = state
        return state, info

    def step(self, key: chex.PRNGKey, state: TEnvState, action: TEnvAction) \
            -> tuple[TEnvState, jax.Array, jax.Array, jax.Array, dict[Any, Any]]:
        step_key, reset_key = jax.random.split(key)

        next_state, reward, terminated, truncated, info = super().step(step_key, state, action)
        info[self.UNRESET_STATE_INFO_KEY] = next_state

        # reset env if terminated/truncated, don't otherwise
        new_state = jax.lax.cond(jnp.logical_or(terminated, truncated), 
            lambda: super(AutoResetWrapper, self).reset(reset_key)[0], lambda: next_state)

        return new_state, reward, terminated, truncated, info

class VmapConditionallyResetWrapper(
    Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    Wrapper[TEnvState, TEnvObs, TEnvAction, TRenderFrame]
):
    """Vmaps the `reset`, `step`, and `get_obs` methods, and automatically resets the environment if terminated or truncated.

    IMPORTANT: Only use this wrapper if resetting the environment is extremely expensive.
        For most use cases, this will be MUCH SLOWER. Use `VmapWrapper(AutoResetWrapper(env))` instead.

    Equivalent to `VmapWrapper(AutoResetWrapper(env))`, but with a possibly faster implementation of the `step` method:
        - `jax.vmap` forces both branches of every `jax.lax.cond` inside to be run; 
            this forces `env.reset` to run every step, even if the env is not terminated or truncated.
        - This wrapper uses `jax.lax.map` instead, allowing conditional execution of `env.reset`

    Does not alter `observation_space` or `action_space` as the batch size is unknown.
    Does not alter the `render` method as it may not be jittable.
    Supports both single and batched PRNG keys.

    Places the original, unresetted state into `info[UNRESET_STATE_INFO_KEY]` (useful eg. for truncation)
        This will be the same as the returned new_state if not terminated and not truncated.
    """

    UNRESET_STATE_INFO_KEY = UNRESET_STATE_INFO_KEY

    def reset(self, key: chex.PRNGKey, num: int | None = None) -> tuple[TEnvState, dict[Any, Any]]:
        """If a single key is given, returns a batch of size `num`."""
        if jnp.isscalar(key): key = jax.random.split(key, num)
        states, infos = jax.vmap(super().reset)(key)
        infos[self.UNRESET_STATE_INFO_KEY] = states
        return states, infos

    def step(self, key: chex.PRNGKey, state: TEnvState, action: TEnvAction) \
            -> tuple[TEnvState, jax.Array, jax.Array, jax.Array, dict[Any, Any]]:

        if jnp.isscalar(key): key = jax.random.split(key, get_tree_vmap_dim(state))
        step_key, reset_key = jax.vmap(jax.random.split)(key).T

        next_state, reward, terminated, truncated, info = jax.vmap(super().step)(step_key, state, action)
        info[self.UNRESET_STATE_INFO_KEY] = next_state

        # reset env if terminated/truncated, don't otherwise; jax.lax.map instead of jax.vmap to allow for branching
        new_state = jax.lax.map(self._conditionally_reset,
            (reset_key, next_state, jnp.logical_or(terminated, truncated)))
        #new_state = jax.vmap(self._conditionally_reset)((reset_key, next_state, jnp.logical_or(terminated, truncated)))

        return new_state, reward, terminated, truncated, info

    def _conditionally_reset(self, x: tuple[chex.PRNGKey, TEnvState, ArrayLike]) -> TEnvState:
        key, state, do_reset = x

        return jax.lax.cond(do_reset, 
            lambda key: super(VmapConditionallyResetWrapper, self).reset(key)[0], lambda key: state,
            key)

    def get_obs(self, key: chex.PRNGKey, state: TEnvState) -> TEnvObs:
        if jnp.isscalar(key): key = jax.random.split(key, get_tree_vmap_dim(state))
        return jax.vmap(super().get_obs)(key, state)

class SquashContinuousActionsToBoundsWrapper(
    Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    Wrapper[TEnvState, TEnvObs, TEnvAction, TRenderFrame]
):
    """Squashes unbounded real values (-inf, inf) in actions to the bounds defined by the action space.
    Ignores discrete values.

    See `Space.squash_continuous_to_bounds(x)`.
    """

    def step(self, key: chex.PRNGKey, state: TEnvState, action: TEnvAction) \
            -> tuple[TEnvState, jax.Array, jax.Array, jax.Array, dict[Any, Any]]:
        action = self.env.action_space.squash_continuous_to_bounds(action)
        return super().step(key, state, action)

@chex.dataclass
class EpisodeStepCountState(Generic[TEnvState]):
    state: TEnvState
    episode_steps: jax.Array

class EpisodeStepCountWrapper(
    Generic[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    Wrapper[EpisodeStepCountState[TEnvState], TEnvObs, TEnvAction, TRenderFrame]
):
    """Stores the step count of the current episode in `info[STEP_COUNT_INFO_KEY]`,
    and optionally truncates episodes upon reaching a maximum length."""

    STEP_COUNT_INFO_KEY = 'episode_steps'

    def __init__(self,
        env: Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
        max_eps_len: int | None = None
    ) -> None:
        super().__init__(env)
        self.max_eps_len = max_eps_len

    def reset(self, key: chex.PRNGKey) -> tuple[EpisodeStepCountState[TEnvState], dict[Any, Any]]:
        state, info = super().reset(key)

        info[self.STEP_COUNT_INFO_KEY] = jnp.array(0)

        return EpisodeStepCountState(state=state, episode_steps=jnp.array(0)), info

    def step(self, key: chex.PRNGKey, state: EpisodeStepCountState[TEnvState], action: TEnvAction) \
            -> tuple[EpisodeStepCountState[TEnvState], jax.Array, jax.Array, jax.Array, dict[Any, Any]]:
        next_state, reward, terminated, truncated, info = super().step(key, state.state, action)

        steps = state.episode_steps + 1
        info[self.STEP_COUNT_INFO_KEY] = steps

        if self.max_eps_len is not None:
            truncated = jnp.logical_or(
                truncated,
                jnp.logical_and(
                    jnp.logical_not(terminated), # don't truncate if already terminated
                    steps >= self.max_eps_len
                )
            )

        return EpisodeStepCountState(state=next_state, episode_steps=steps), reward, terminated, truncated, info

    def get_obs(self, key: chex.PRNGKey, state: EpisodeStepCountState[TEnvState]) -> TEnvObs:
        return self.env.get_obs(key, state.state)

    def render(self, state: EpisodeStepCountState[TEnvState], action: ArrayLike) -> TRenderFrame:
        return self.env.render(state.state, action)


# ---- core/envs/utils.py
import math

from typing import Any, Generic, Callable, Protocol, TypeAlias
from typing_extensions import TypeVar

import chex

import jax
from jax.typing import ArrayLike

import jax.numpy as jnp

from flax import nnx

# from core.utils.batch_utils import get_tree_vmap_dim  # scaffolding: flattened into this file
# from core.utils.func_utils import optionally_pass  # scaffolding: flattened into this file

# from core.envs.base import Environment  # scaffolding: flattened into this file
# from core.envs.wrappers import AutoResetWrapper, VmapWrapper, VmapConditionallyResetWrapper  # scaffolding: flattened into this file

TEnvState = TypeVar("TEnvState")
TEnvObs = TypeVar("TEnvObs")
TEnvAction = TypeVar("TEnvAction")
TRenderFrame = TypeVar("TRenderFrame", default=None)

class PolicyWithRngs(Generic[TEnvObs, TEnvAction], Protocol):
    def __call__(self, obs: TEnvObs, rngs: nnx.Rngs) -> TEnvAction: ...
class PolicyWithoutRngs(Generic[TEnvObs, TEnvAction], Protocol):
    def __call__(self, obs: TEnvObs) -> TEnvAction: ...
Policy: TypeAlias = PolicyWithoutRngs[TEnvObs, TEnvAction] | PolicyWithRngs[TEnvObs, TEnvAction]

class CriticWithRngs(Generic[TEnvObs], Protocol):
    def __call__(self, obs: TEnvObs, rngs: nnx.Rngs) -> ArrayLike: ...
class CriticWithoutRngs(Generic[TEnvObs], Protocol):
    def __call__(self, obs: TEnvObs) -> ArrayLike: ...
Critic: TypeAlias = CriticWithoutRngs[TEnvObs] | CriticWithRngs[TEnvObs]

def evaluate_episodes(rngs: nnx.Rngs, 
    env: Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame], 
    policy: Policy[TEnvObs, TEnvAction], 
    episodes: int, n_envs = 32,
    eps_steps_limit: int = None
) -> tuple[jax.Array, jax.Array]:
    """Runs the policy in `n_envs` environments in parallel until completing `episodes` episodes, 
    returning an array of trajectory returns and and an array of trajectory lengths.

    `env` does not need to already be wrapped with `VmapWrapper`/`AutoResetWrapper`/`VmapConditionallyResetWrapper`.
        If `env` is already wrapped with these, ensure they are placed at the top level
        so that they can be detected, avoiding duplicate wrapping.

    Runs at LEAST `episodes` episodes. If `episodes` is not a multiple of `n_envs`, will run the next multiple.
    """

    eps_per_env = math.ceil(episodes / n_envs)

    if isinstance(env, VmapWrapper) or isinstance(env, VmapConditionallyResetWrapper):
        env = env.env

    if not isinstance(env, AutoResetWrapper):
        env = AutoResetWrapper(env)

    def env_step(carry):
        eps_done, rngs, env_state, cur_return, eps_returns, cur_len, eps_lens = carry

        # step env
        obs = env.get_obs(rngs.env(), env_state)
        action = optionally_pass(policy, rngs=rngs)(obs)
        env_state, reward, terminated, truncated, info = env.step(rngs.env(), env_state, action)

        if eps_steps_limit is not None:
            truncated = jnp.logical_or(truncated, cur_len >= eps_steps_limit)

        cur_return = cur_return + reward
        cur_len = cur_len + 1
        done = jnp.logical_or(terminated, truncated)

        # add metrics to aggregate array of eps metrics if done
        eps_returns = eps_returns.at[eps_done].set(cur_return)
        eps_lens = eps_lens.at[eps_done].set(cur_len)

        eps_done = jnp.where(done, eps_done + 1, eps_done)

        # reset cur metrics if done
        not_done = jnp.logical_not(done)
        cur_return = cur_return * not_done
        cur_len = cur_len * not_done

        return eps_done, rngs, env_state, cur_return, eps_returns, cur_len, eps_lens

    def run_env(rngs):
        env_state, info = env.reset(rngs.env())

        eps_done, rngs, env_state, cur_return, eps_returns, cur_len, eps_lens = nnx.while_loop(
            lambda input: input[0] < eps_per_env, 
            env_step, 
            (0, rngs, env_state, 0, jnp.empty(eps_per_env), 0, jnp.empty(eps_per_env))
        )

        return eps_returns, eps_lens

    eps_returns, eps_lens = nnx.vmap(run_env)(rngs.fork(split=n_envs))

    return eps_returns.flatten(), eps_lens.flatten()

@chex.dataclass
class Timestep(Generic[TEnvState, TEnvObs, TEnvAction]):
    state: TEnvState
    obs: TEnvObs
    action: TEnvAction
    reward: ArrayLike
    info: dict[Any, Any]
    terminated: bool
    truncated: bool

TTakeObj = TypeVar('TTakeObj', default=Timestep[TEnvState, TEnvObs, TEnvAction])

class TakeFuncWithRngs(Generic[TEnvState, TEnvObs, TEnvAction, TTakeObj], Protocol):
    def __call__(self, timestep: Timestep[TEnvState, TEnvObs, TEnvAction], rngs: nnx.Rngs) -> TTakeObj: ...
class TakeFuncWithoutRngs(Generic[TEnvState, TEnvObs, TEnvAction, TTakeObj], Protocol):
    def __call__(self, timestep: Timestep[TEnvState, TEnvObs, TEnvAction]) -> TTakeObj: ...
TakeFunc: TypeAlias = TakeFuncWithoutRngs[TEnvState, TEnvObs, TEnvAction, TTakeObj] \
    | TakeFuncWithRngs[TEnvState, TEnvObs, TEnvAction, TTakeObj]

def rollout_episode(rngs: nnx.Rngs, 
    env: Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame], 
    policy: Policy[TEnvObs, TEnvAction],
    chunk_size: int = 100,
    take_func: TakeFunc[TEnvState, TEnvObs, TEnvAction, TTakeObj] | None = None
) -> tuple[TTakeObj, TEnvState, dict[Any, Any]]:
    """Rollout one episode. Intended for visualization, rather than training. Do NOT JIT.
    Performs rollout in chunks of `chunk_size` steps for speed, combining chunks at the end.

    `take_func`: Optional function to specify which values to take from Timestep
        A full `Timestep` object is returned by default.

    Returns: 
        timesteps, or user defined take objs for each timestep
        final state and final info (may be useful eg. if truncated)
    """

    if take_func is None:
        take_func = lambda x: x

    @nnx.jit
    @nnx.scan
    def rollout(carry, rngs):
        state, info = carry

        obs = env.get_obs(rngs.env(), state)
        action = optionally_pass(policy, rngs=rngs)(obs)

        next_state, reward, terminated, truncated, next_info = env.step(rngs.env(), state, action)

        timestep = Timestep(state=state, obs=obs, action=action, reward=reward, info=info,
            terminated=terminated, truncated=truncated)

        return (next_state, next_info), (optionally_pass(take_func, rngs=rngs)(timestep), terminated, truncated)

    state, info = env.reset(rngs.env())

    comb_take_vals = None
    done = False
    
    while not done:
        (state, info), (take_vals, terminated, truncated) = rollout(
            (state, info), rngs.fork(split=chunk_size))

        dones = jnp.logical_or(terminated, truncated)
        done_idx = jnp.argmax(dones)
        done = dones[done_idx]

        if done:
            take_vals = jax.tree.map(lambda x: x[:done_idx+1], take_vals)

        if comb_take_vals is None:
            comb_take_vals = take_vals
        else: # append to existing
            comb_take_vals = jax.tree.map(lambda comb, new: jnp.concatenate((comb, new), axis=0), 
                comb_take_vals, take_vals)
    
    return comb_take_vals, state, info

def parallel_rollout(rngs: nnx.Rngs,
    env: Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame],
    policy: Policy[TEnvObs, TEnvAction],
    iter: int,
    n_envs: int | None = 32,
    initial_env_states: TEnvState | None = None,
    initial_env_infos: dict[Any, Any] | None = None,
    take_func: TakeFunc[TEnvState, TEnvObs, TEnvAction, TTakeObj] | None = None
) -> tuple[TTakeObj, TEnvState, dict[Any, Any]]:
    """Runs `n_envs` environments in parallel for `iter` steps each,
        for a total of `iter * n_envs` steps.

    Automatically resets environments that finish.
        Places the original, unresetted state into `info[UNRESET_STATE_INFO_KEY]` (useful eg. for truncation)
        This will be the same as the returned new_state if not terminated and not truncated.

    `policy` should accept a batched input of `rngs` and `obs`. Apply `jax.vmap` before passing in if not already batched.

    `env` does not need to already be wrapped with `VmapWrapper`/`AutoResetWrapper`/`VmapConditionallyResetWrapper`.
        If `env` is already wrapped with these, ensure they are placed at the top level
        so that they can be detected, avoiding duplicate wrapping.

    Initializes `n_envs` initial environment states if none given.
    `n_envs` can be infered from the length of the axis if `initial_env_states` is given.

    If `initial_env_states` is given but `initial_env_infos` is not given,
        the first infos will be a dummy value.

    `take_func`: Optional function to specify which values to take from Timestep
        A full `Timestep` object is returned by default.

    Returns: timesteps, or user defined take objs for each timestep; final states; final infos
        timesteps/take objs will have two extra leading axes: `shape = (iter, n_envs, ...)`
    """

    if not isinstance(env, VmapConditionallyResetWrapper):
        if not isinstance(env, VmapWrapper):
            if not isinstance(env, AutoResetWrapper):
                env = AutoResetWrapper(env)

            env = VmapWrapper(env)

    if initial_env_states is None:
        assert n_envs is not None, "Must specify `n_envs` if `initial_env_states` not given."
        initial_env_states, initial_env_infos = env.reset(rngs.env(), num=n_envs)
    elif n_envs is None:
        n_envs = get_tree_vmap_dim(initial_env_states)

    if initial_env_infos is None:
        _, initial_env_infos = env.reset(jax.random.key(0), num=n_envs) # dummy value

    if take_func is None:
        take_func = lambda x: x

    def batched_env_step(carry: tuple[TEnvState, dict[Any,Any]], rngs: nnx.Rngs) -> tuple[TEnvState, TTakeObj]:
        states, infos = carry

        obs = env.get_obs(rngs.env(), states)
        actions = optionally_pass(policy, rngs=rngs.fork(split=n_envs))(obs)

        new_states, rewards, terminateds, truncateds, new_infos = env.step(rngs.env(), states, actions)

        return (new_states, new_infos), optionally_pass(take_func, rngs=rngs)(Timestep(
            state=states, obs=obs, action=actions, reward=rewards, 
            info=infos, terminated=terminateds, truncated=truncateds)
        )

    (env_states, infos), take_values = nnx.scan(batched_env_step)(
        (initial_env_states, initial_env_infos), rngs.fork(split=iter))

    return take_values, env_states, infos

def visualize_pygame(rngs: nnx.Rngs, 
    env: Environment[TEnvState, TEnvObs, TEnvAction, TRenderFrame], 
    policy: Policy[TEnvObs, TEnvAction],
    window_size: tuple[int, int] | None = None, 
    fps: int = 10,
    render_func: Callable[[TEnvState, TEnvAction], ArrayLike] | None = None,
    verbose: bool = False,
    episode_steps_limit: int | None = None,
) -> tuple[Timestep, bool]:
    """Visualizes episodes, rendering in pygame, until closed.
    `render_func` should output an array of pixels (y, x, r, g, b). Defaults to `env.render` if not given.
    Does not JIT wrap the environment or policy. Try JIT wrapping before passing in if slow,
        though this may incur penalties due to the slow transfer of data between devices.
    """
    import pygame
    import numpy as np

    if render_func is None:
        render_func = env.render

    state, info = env.reset(rngs.env())

    if window_size is None: # infer window_size from render_func
        dummy_img = render_func(state, env.action_space.sample(jax.random.key(0)))
        window_size = dummy_img.shape[-2::-1] # first two dims, swapped

    steps = 0
    eps_return = 0
    terminated = False
    truncated = False

    pygame.init()
    clock = pygame.time.Clock()
    pygame.display.set_caption("Environment Visualization")
    screen = pygame.display.set_mode(window_size)

    done = False

    while not done:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                done = True

        if terminated or truncated:
            print(f"{'Terminated' if terminated else 'Truncated'} at steps={steps}, return={eps_return}\n")

            state, info = env.reset(rngs.env())
            steps = 0
            eps_return = 0
            terminated = False
            truncated = False
        
        else:
            obs = env.get_obs(rngs.env(), state)
            action = optionally_pass(policy, rngs=rngs)(obs)

            state, reward, terminated, truncated, info = env.step(rngs.env(), state, action)

            steps += 1
        
            if reward != 0 or verbose:
                eps_return += reward
                print(f"steps={steps}, reward={reward}, return={eps_return}", end="")

                if verbose:
                    print(f" obs={obs}, action={action}", end="")
                
                print()

        image_array = np.asarray(render_func(state, action))
        pygame_surface = pygame.surfarray.make_surface(image_array.swapaxes(0,1))
        screen.blit(pygame_surface, (0,0))
        pygame.display.flip()

        clock.tick(fps)

        truncated = truncated or (episode_steps_limit is not None and steps >= episode_steps_limit)

    pygame.quit()
# ---- core/envs/gridworld/gridworld_env.py
from chex import dataclass
from jax.typing import ArrayLike
from jax import Array
from typing import Any
import chex

from os import path

import jax.numpy as jnp
import jax

import numpy as np

# from core.envs.base import Environment, Space  # scaffolding: flattened into this file

MAP_DIR = path.join(path.dirname(__file__), "maps")
get_map_path = lambda x: path.join(MAP_DIR, x)

@dataclass(frozen=True)
class State:
    pos: jax.Array
    steps: ArrayLike

class GridworldEnv(Environment[State, Array, ArrayLike, str]):
    ROWS_DELIMITER = "\n\n"
    COLS_DELIMITER = "   "
    WALL_TILE = "WWW"
    END_TILE = "END"

    ACTIONS = jnp.asarray(( (-1,0), (1,0), (0,-1), (0,1) ), dtype=jnp.int32)

    @classmethod
    def default_map(cls, map_name: str, max_steps: int = 50):
        try:
            with open(get_map_path(map_name + ".txt"), "r") as f:
                map_data = f.read()
        except FileNotFoundError:
            raise Exception(f"Map '{map_name}' not found.")
        
        return cls(map_data, max_steps)

    def __init__(self, map_data: str, max_steps: int = 50) -> None:
        self.max_steps = max_steps

        self.map_data = map_data

        rows = map_data.split(GridworldEnv.ROWS_DELIMITER)

        num_cols = len(rows[0].split("\n")[0].split(GridworldEnv.COLS_DELIMITER))
        self.map_shape = (len(rows), num_cols)

        self.min_coords = jnp.asarray((0, 0), dtype=jnp.int32)
        self.max_coords = jnp.asarray(self.map_shape, dtype=jnp.int32) \
            - jnp.asarray((1, 1), dtype=jnp.int32) # subtract 1 because 0-indexed

        tile_rewards = np.zeros(self.map_shape, dtype="int32")
        tile_is_passable = np.zeros(self.map_shape, dtype="bool")
        tile_is_end = np.zeros(self.map_shape, dtype="bool")
        spawnpoints = []

        # highest non-negative END tile becomes the goal
        self.goal_pos = None
        self.goal_reward = 0

        for y, row in enumerate(rows):
            rewards, types = map(lambda a: a.split(GridworldEnv.COLS_DELIMITER), row.split("\n"))

            for x, (reward, type_str) in enumerate(zip(rewards, types)):
                tile_rewards[y, x] = int(reward)
                tile_is_passable[y, x] = type_str != GridworldEnv.WALL_TILE
                tile_is_end[y, x] = type_str == GridworldEnv.END_TILE

                if not (type_str == GridworldEnv.WALL_TILE or type_str == GridworldEnv.END_TILE):
                    spawnpoints.append(jnp.asarray((y, x), dtype=jnp.int32))

                if type_str == "END" and tile_rewards[y, x] > self.goal_reward:
                    self.goal_pos = jnp.asarray((y, x), dtype=jnp.int32)
                    self.goal_reward = tile_rewards[y, x]

        self.tile_rewards = jnp.asarray(tile_rewards) # reward given upon moving to the tile
        self.tile_is_passable = jnp.asarray(tile_is_passable) # can move through, ie. not a wall
        self.tile_is_end = jnp.asarray(tile_is_end) # whether to end the episode upon moving to the tile
        self.spawnpoints = jnp.asarray(spawnpoints) # valid starting positions for reset()

    def reset(self, key: chex.PRNGKey) -> tuple[State, dict[Any, Any]]:
        pos = jax.random.choice(key, self.spawnpoints)
        # self.pos = jnp.asarray((0, 0), dtype="int32")

        return State(pos=pos, steps=0), { "goal": self.goal_pos }

    def step(self, key: chex.PRNGKey, state: State, action: ArrayLike) \
        -> tuple[State, Array, Array, Array, dict[Any, Any]]:
        n_pos = self.update_pos(state.pos, action)
        n_steps = state.steps + 1

        return State(pos=n_pos, steps=n_steps), self.tile_rewards[tuple(n_pos)], \
            self.tile_is_end[tuple(n_pos)], n_steps >= self.max_steps, { "goal": self.goal_pos }

    def update_pos(self, pos: Array, action: ArrayLike) -> Array:
        n_pos = pos + GridworldEnv.ACTIONS[action] # move according to action

        # prevent going out of bounds
        n_pos_in_bounds = jnp.clip(n_pos, self.min_coords, self.max_coords)
        move = n_pos_in_bounds - pos

        # cancel movement if new tile is a wall
        n_pos = pos + move*self.tile_is_passable[tuple(n_pos)]

        return n_pos

    def get_obs(self, key: chex.PRNGKey, state: State) -> Array:
        return state.pos

    def render(self, state: State, Action: ArrayLike) -> Array:
        array_map = list(map(lambda row: list(row), self.map_data.split("\n")))

        r = 3*state.pos[0]
        c = 6*state.pos[1] + 3

        array_map[r][c] = "*"

        return "\n".join(map(lambda row: "".join(row), array_map))

    @property
    def observation_space(self) -> Space[Array]:
        return Space(low=self.min_coords, high=self.max_coords)

    @property
    def action_space(self) -> Space[ArrayLike]:
        return Space(low=jnp.array(0), high=jnp.array(3))


    def visualize_q_table(self, q_vals) -> str:
        result = ""

        for y, row in enumerate(q_vals):

            for x, tile in enumerate(row):
                if self.tile_is_end[y,x] or not self.tile_is_passable[y,x]:
                    result += "@"
                else:
                    best_action = np.argmax(tile)
                    result += ( "^", "v", "<", ">" )[best_action]

                result += " "

            result += "\n"

        return result
# ---- core/algos/base.py
from abc import ABC, abstractmethod

import jax.numpy as jnp
import jax

from jax.typing import ArrayLike
from chex import dataclass
from typing import TypeVar, Generic, Protocol, TypeAlias

from flax import nnx

# from core.envs.utils import PolicyWithRngs, PolicyWithoutRngs, CriticWithRngs, CriticWithoutRngs  # scaffolding: flattened into this file

TScheduleValue = TypeVar('TScheduleValue')

class Schedule(Generic[TScheduleValue], Protocol):
    def __call__(self, steps: int) -> TScheduleValue:
        ...

Scheduleable: TypeAlias = TScheduleValue | Schedule[TScheduleValue]

TEnvObs = TypeVar("TEnvObs")
TEnvAction = TypeVar("TEnvAction")

# class PolicyNetworkWithRngs(Generic[TEnvObs, TEnvAction], PolicyWithRngs[TEnvObs, TEnvAction], nnx.Module): ...
# class PolicyNetworkWithoutRngs(Generic[TEnvObs, TEnvAction], PolicyWithoutRngs[TEnvObs, TEnvAction], nnx.Module): ...
# PolicyNetwork: TypeAlias = PolicyNetworkWithRngs[TEnvObs, TEnvAction] | PolicyNetworkWithoutRngs[TEnvObs, TEnvAction]

# class CriticNetworkWithRngs(Generic[TEnvObs], CriticWithRngs[TEnvObs], nnx.Module): ...
# class CriticNetworkWithoutRngs(Generic[TEnvObs], CriticWithoutRngs[TEnvObs], nnx.Module): ...
# CriticNetwork: TypeAlias = CriticNetworkWithRngs[TEnvObs] | CriticNetworkWithoutRngs[TEnvObs]

# Python's type checker is not advanced enough for stuff like above yet
class PolicyNetworkWithRngs(Generic[TEnvObs, TEnvAction], nnx.Module):
    def __call__(self, obs: TEnvObs, rngs: nnx.Rngs) -> TEnvAction: ...
class PolicyNetworkWithoutRngs(Generic[TEnvObs, TEnvAction], nnx.Module):
    def __call__(self, obs: TEnvObs) -> TEnvAction: ...
PolicyNetwork: TypeAlias = PolicyNetworkWithRngs[TEnvObs, TEnvAction] | PolicyNetworkWithoutRngs[TEnvObs, TEnvAction]

class CriticNetworkWithRngs(Generic[TEnvObs], nnx.Module):
    def __call__(self, obs: TEnvObs, rngs: nnx.Rngs) -> ArrayLike: ...
class CriticNetworkWithoutRngs(Generic[TEnvObs], nnx.Module):
    def __call__(self, obs: TEnvObs) -> ArrayLike: ...
CriticNetwork: TypeAlias = CriticNetworkWithRngs[TEnvObs] | CriticNetworkWithoutRngs[TEnvObs]

"""UNOFFICIAL Algo spec; not currently enforced, subject to change

class Algo(Generic[TTrainingState, TPolicy, TEnvState, TEnvObs, TEnvAction]):
    
    attributes:
        env
        hyperparameters? should this be standardized?

    methods:
        __init__(env, *nonstandard params (eg. hyperparameters))
        get_action(rngs, policy, obs, deterministic flag?, optional params) -> TEnvAction
        init_training_state(rngs, optional params (eg. network, replay buffer state, prefill steps)) -> TTrainingState
        train_epoch(rngs, training_state, epoch_steps) -> TTrainingState, metrics (probably dict? dataclass overkill?)

        create_default_policy(rngs)? can be used as dummy for loading

        rollout(rngs, policy, iter, initial_env_states (optional), optional params) -> Transition?
            - should this be standardized/public? or private implementation detail


@chex.dataclass
class TrainingState(ABC, Generic[TEnvState, TPolicy]): should this be standardized?
    attributes: steps, env_states, policy
"""
# ---- core/algos/tabular_q.py
import math

from flax import nnx

import jax.numpy as jnp
import jax
from jax import flatten_util

from jax.typing import ArrayLike
from chex import dataclass
import chex
from typing import TypeVar, Generic, Any

import functools

# from core.algos.base import Scheduleable  # scaffolding: flattened into this file
# from core.utils.func_utils import try_call  # scaffolding: flattened into this file

# from core.envs.base import Environment, Space  # scaffolding: flattened into this file
# from core.envs.wrappers import AutoResetWrapper  # scaffolding: flattened into this file
# from core.envs.utils import parallel_rollout  # scaffolding: flattened into this file
# from core.utils import ReplayBuffer, ReplayBufferState  # scaffolding: flattened into this file

@dataclass(frozen=True)
class Hyperparameters:
    n_envs: int = 32

    discount_rate: Scheduleable[float] = 0.95
    learning_rate: Scheduleable[float] = 0.1

    batch_size: int = 32

    epsilon: Scheduleable[float] = 0.05
        # it is recommended to use a schedule: decay from 1 to ~0.05 over ~10% of training steps
        # eg. optax.schedules.linear_schedule(1, 0.05, 0.1*steps)

    replay_buffer_size: int = 10_000

    train_freq: int = 4 # does around 1 gradient step per train_freq env steps
        # NOTE: if n_envs > train_freq, we take 1 step in each env, followed by multiple gradient steps
        # NOTE: will round up or down if not divisible evenly

    target_update_interval: int = 1000

TEnvState = TypeVar("TEnvState")
TEnvObs = TypeVar("TEnvObs")

@dataclass(frozen=True)
class Transition(Generic[TEnvObs]):
    obs: TEnvObs
    action: ArrayLike
    reward: ArrayLike
    next_obs: TEnvObs
    terminated: ArrayLike

@dataclass(frozen=True)
class TrainingState(Generic[TEnvState, TEnvObs]):
    steps: ArrayLike
    env_states: TEnvState
    replay_buffer_state: ReplayBufferState[Transition[TEnvObs]]

    policy: jax.Array
        # perhaps named confusingly; policy q-values, used for getting actions, though not directly an actor
        # named like this so api matches with other algos
    target: jax.Array # target q-values

class TabularQ(Generic[TEnvState, TEnvObs]):
    """Implementation of Tabular Q-Learning."""

    def __init__(self, 
        env: Environment[TEnvState, TEnvObs, ArrayLike],
        obs_resolution: ArrayLike = None, # pytree with same shape as env.observation_space, defaults to 1
        observation_space: Space[TEnvObs] = None, # override environment observation space
        hyperparameters: Hyperparameters = Hyperparameters()
    ) -> None:
        assert (
            jnp.isscalar(env.action_space.low) 
            and jnp.issubdtype(env.action_space.shapes_dtypes.dtype, jnp.integer)
            and env.action_space.low == 0
        ), "Action space for Q-Learning must be discrete (jnp integer scalar, min=0)."

        self.env = env
        self.num_actions = int(env.action_space.high + 1)

        self.hyperparameters = hyperparameters

        self.observation_space = observation_space if observation_space is not None else env.observation_space

        if obs_resolution is None:
            obs_resolution = jax.tree.map(jnp.ones_like, self.observation_space.low)

        self.obs_resolution = obs_resolution

        self.obs_low_flattened, self.obs_unflatten_func = flatten_util.ravel_pytree(self.observation_space.low)
        self.obs_high_flattened = flatten_util.ravel_pytree(self.observation_space.high)[0]
        self.obs_resolution_flattened = flatten_util.ravel_pytree(obs_resolution)[0]

        self.q_table_shape = (1 + jnp.round(
            (self.obs_high_flattened - self.obs_low_flattened) / self.obs_resolution_flattened)) \
            .astype(int).tolist()

        # make replay buffer
        self.transition_shapes_dtypes = Transition(
            obs = self.env.observation_space.shapes_dtypes,
            action = self.env.action_space.shapes_dtypes,
            reward = jax.ShapeDtypeStruct(shape=(), dtype=jnp.float32),
            next_obs = self.env.observation_space.shapes_dtypes,
            terminated = jax.ShapeDtypeStruct(shape=(), dtype=jnp.bool)
        )

        self.replay_buffer = ReplayBuffer[Transition[TEnvObs]](
            self.transition_shapes_dtypes, self.hyperparameters.replay_buffer_size)

    def get_q_table_index(self, obs: TEnvObs) -> jax.Array:
        flattened_obs, _ = flatten_util.ravel_pytree(obs)

        return jnp.clip(
            jnp.round((flattened_obs - self.obs_low_flattened) / self.obs_resolution_flattened), 
            0, jnp.array(self.q_table_shape) - 1
        ).astype(int)

    def get_greedy_action(self, rngs: nnx.Rngs, policy: jax.Array, obs: TEnvObs) -> ArrayLike:
        q_vals = jax.vmap(lambda qs, obs: qs[tuple(self.get_q_table_index(obs))], 
            in_axes=[0, None])(policy, obs)
        return jnp.argmax(q_vals)

    def get_random_action(self, rngs: nnx.Rngs) -> ArrayLike:
        return jax.random.randint(rngs.actions(), shape=(), minval=0, maxval=self.num_actions)

    def get_action(self, rngs: nnx.Rngs, policy: jax.Array, obs: TEnvObs, epsilon: ArrayLike = 0) -> ArrayLike:
        random_action = self.get_random_action(rngs)
        greedy_action = self.get_greedy_action(rngs, policy, obs)

        return jnp.where(jax.random.uniform(rngs.actions()) < epsilon, 
            random_action, greedy_action)

    def create_default_policy(self, rngs: nnx.Rngs, init_val: ArrayLike = jnp.array(0, dtype=jnp.float32)) -> jax.Array:
        return jnp.repeat(jnp.full(self.q_table_shape, init_val, dtype=jnp.float32)[None, ...], 
            self.num_actions, axis=0)

    def rollout_transitions(self,
        rngs: nnx.Rngs, 
        policy: jax.Array, 
        iter: int,
        initial_env_states: TEnvState | None = None,
        epsilon: ArrayLike = 0
    ) -> tuple[Transition[TEnvObs], TEnvState]:
        """Collect a rollout of `Transition`s.

        Runs `n_envs` environments in parallel for `iter` steps each,
            for a total of `iter * n_envs` transitions.

        Initializes initial environment states if none given.

        Returns: transitions, final environment states
        """

        vmapped_get_obs = lambda rngs, obs: jax.vmap(self.env.get_obs)(
            jax.random.split(rngs.env(), self.hyperparameters.n_envs), obs)

        (unreset_obs, timesteps), env_states, final_infos = parallel_rollout(
            rngs, self.env,
            nnx.vmap(lambda obs, rngs: self.get_action(rngs, policy, obs, epsilon)),
            iter, self.hyperparameters.n_envs,
            initial_env_states,

            take_func = lambda timesteps, rngs: (
                vmapped_get_obs(rngs, timesteps.info[AutoResetWrapper.UNRESET_STATE_INFO_KEY]), 
                timesteps.replace(state=None, info=None)
            )
        )

        final_obs = vmapped_get_obs(rngs, final_infos[AutoResetWrapper.UNRESET_STATE_INFO_KEY])
        next_obs = jax.tree.map(lambda middles, finals: 
                jnp.concatenate((middles[1:], finals[None, ...]), axis=0),
            unreset_obs, final_obs)

        timesteps = jax.tree.map(lambda x: x.reshape(-1, *x.shape[2:]), timesteps) # flatten to remove axis 0
        next_obs = jax.tree.map(lambda x: x.reshape(-1, *x.shape[2:]), next_obs) # flatten to remove axis 0

        transitions = Transition(obs=timesteps.obs, action=timesteps.action, 
            reward=timesteps.reward, next_obs=next_obs, terminated=timesteps.terminated)

        return transitions, env_states

    def init_training_state(self,
        rngs: nnx.Rngs,
        policy: jax.Array | None = None,
        replay_buffer_state: ReplayBufferState[Transition[TEnvObs]] | None = None,
        prefill_steps: int = 10_000
    ) -> TrainingState[TEnvState, TEnvObs]:
        if policy is None:
            policy = self.create_default_policy(rngs)

        if replay_buffer_state is None:
            replay_buffer_state = self.replay_buffer.init()

        # prefill replay buffer
        transitions, env_states = nnx.jit(self.rollout_transitions, static_argnames=('iter'))(rngs,
            policy,
            math.ceil(prefill_steps / self.hyperparameters.n_envs),
            epsilon=1
        )

        replay_buffer_state = self.replay_buffer.insert(replay_buffer_state, transitions)

        return TrainingState(
            steps = jnp.array(0, dtype=jnp.int32),
            env_states = env_states,    
            replay_buffer_state = replay_buffer_state,

            policy = policy,
            target = policy
        )

    @functools.partial(nnx.jit, static_argnames=('self', 'epoch_steps'))
    def train_epoch(self, 
        rngs: nnx.Rngs,
        training_state: TrainingState[TEnvState, TEnvObs],
        epoch_steps: int,
    ) -> tuple[TrainingState[TEnvState, TEnvObs], dict[Any, Any]]:
        """Train for one 'epoch' -- one fully JIT compiled segment."""

        steps_per_env_per_iter = math.ceil(self.hyperparameters.train_freq / self.hyperparameters.n_envs)
        total_steps_per_iter = steps_per_env_per_iter * self.hyperparameters.n_envs
        learn_steps_per_iter = math.ceil(self.hyperparameters.n_envs / self.hyperparameters.train_freq)

        def train_iteration(training_state: TrainingState[TEnvState, TEnvObs], rngs: nnx.Rngs) \
                -> tuple[TrainingState[TEnvState, TEnvObs], dict[Any, Any]]:
            env_states = training_state.env_states
            steps = training_state.steps
            replay_buffer_state = training_state.replay_buffer_state

            policy = training_state.policy
            target = training_state.target
            
            ## sample transitions from environment ##

            transitions, env_states = self.rollout_transitions(rngs, 
                policy,
                steps_per_env_per_iter,
                env_states,
                epsilon=try_call(self.hyperparameters.epsilon, steps)
            )

            replay_buffer_state = self.replay_buffer.insert(replay_buffer_state, transitions)

            steps += total_steps_per_iter

            ## update policy ##

            def learn_step(policy: jax.Array, rngs: nnx.Rngs) \
                    -> tuple[tuple[nnx.Module, nnx.Optimizer], dict[Any, Any]]:

                sampled_transitions = self.replay_buffer.sample(rngs.transitions(), 
                    replay_buffer_state, self.hyperparameters.batch_size)

                q_is = jax.vmap(self.get_q_table_index)(sampled_transitions.next_obs)
                next_qs = target[(slice(None),) + tuple(q_is.T)]
                max_next_qs = jnp.max(next_qs, axis=0)
                # zero out q_val if terminated
                max_next_qs = max_next_qs * jnp.logical_not(sampled_transitions.terminated)

                target_qs = sampled_transitions.reward \
                    + try_call(self.hyperparameters.discount_rate, steps)*max_next_qs

                adjust_is = (sampled_transitions.action, ) \
                    + tuple(jax.vmap(self.get_q_table_index)(sampled_transitions.obs).T)
                pred_qs = policy[adjust_is]

                # only used as a metric
                loss = jnp.mean(jnp.power(target_qs - pred_qs, 2))

                adjusts = try_call(self.hyperparameters.learning_rate, steps) * (target_qs - pred_qs) \
                    / self.hyperparameters.batch_size # make "learning rate" independent of batch size
                policy = policy.at[adjust_is].add(adjusts)

                return policy, { 'critic_loss': loss }

            policy, metrics = nnx.scan(learn_step)(policy, rngs.fork(split=learn_steps_per_iter))

            # update target if enough steps have passed
            update_target = steps % self.hyperparameters.target_update_interval < total_steps_per_iter
            target = jax.lax.cond(update_target, lambda: policy, lambda: target)

            return TrainingState(
                steps=steps,
                env_states=env_states,
                replay_buffer_state=replay_buffer_state,
                policy=policy,
                target=target,
            ), jax.tree.map(lambda x: jnp.mean(x), metrics)

        iterations = math.ceil(epoch_steps / total_steps_per_iter)
        training_state, metrics = nnx.scan(train_iteration)(training_state, rngs.fork(split=iterations))

        return training_state, jax.tree.map(lambda x: jnp.mean(x), metrics)

tabular_q = _types.SimpleNamespace(Hyperparameters=Hyperparameters, TabularQ=TabularQ)  # scaffolding: module stand-in

# examples/tabular_q_gridworld.py before the commit
import time

import jax
import jax.numpy as jnp

from optax import schedules

from flax import nnx

# from core.envs.gridworld import GridworldEnv, State # scaffolding: flattened above

# from core.algos import tabular_q # scaffolding: flattened above
# from core.envs.utils import evaluate_episodes # scaffolding: flattened above

rngs = nnx.Rngs(0, params=1, env=2, actions=3, transitions=4)

MAP = "general"
env = GridworldEnv(_GENERAL_MAP_TXT)  # scaffolding: GridworldEnv.default_map(MAP) reads maps/general.txt, inlined above

### TRAIN ###
STEPS = 3 * 1_000  # scaffolding: 200_000
LOG_INTERVAL_STEPS = 1_000  # scaffolding: 10_000
EVAL_EPS = 64  # scaffolding: 2048
    # very number of eval eps for maze env since high variance due to random starting position

hyperparameters = tabular_q.Hyperparameters(
    discount_rate = 0.95,
    learning_rate = 0.1,

    epsilon = schedules.linear_schedule(1, 0.05, 0.1*STEPS),

    replay_buffer_size = 1000,
    batch_size = 32,
    train_freq = 4,
    n_envs = 32, #256,

    target_update_interval = 100,
)

algo = tabular_q.TabularQ(env, hyperparameters=hyperparameters)

training_state = algo.init_training_state(rngs)

while training_state.steps < STEPS:
    start_time = time.perf_counter()

    training_state, metrics = algo.train_epoch(rngs, training_state, LOG_INTERVAL_STEPS)

    elasped_time = time.perf_counter() - start_time
    sps = LOG_INTERVAL_STEPS / elasped_time
    print(f"Completed steps={training_state.steps}; sps={sps:,.1f}")
    print("Metrics: " + " ".join([ f"{key}={val}" for key, val in metrics.items() ]))

    # eval
    returns, lengths = nnx.jit(evaluate_episodes, static_argnums=(1, 2, 3, 4, 5))(
        rngs, env, 
        lambda obs, rngs: algo.get_action(rngs, training_state.policy, obs), 
        EVAL_EPS, hyperparameters.n_envs
    )

    print(f"Episode Return: mean={jnp.mean(returns)} std={jnp.std(returns, ddof=1)}")
    print(f"Episode Length: mean={jnp.mean(lengths)} std={jnp.std(lengths, ddof=1)}")

    print()

print(training_state.policy)
print(env.visualize_q_table(jnp.moveaxis(training_state.policy, 0, 2)))
_report({"jit(evaluate_episodes)", "jit(train_epoch)"}, 6)  # scaffolding: 3 epochs x (train_epoch, evaluate_episodes)
