# source: https://github.com/Sea-Snell/jax_v_pytorch/blob/5e004326df43a68c74489c141398b233f4582764/cifar_mnist/flax/train_loop.py
# expect: jit-in-loop-or-body at line 281
# runtime: COMPILES 4 CALLS 8
# why: StandardEvaluator.unroll wraps a fresh eval_loss closure in jax.jit on every call, and TrainLoop calls self.evaluator.unroll every eval_every steps, so each evaluation traces and compiles eval_loss again: 4 compiles for 8 calls.

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


# --- end harness ---
import flax  # scaffolding
flax.config.update('flax_return_frozendict', True)  # scaffolding: the 2022 code expects FrozenDict.pop -> (rest, value)

# --- cifar_mnist/flax/flax_utils.py ---
from typing import Union, Any, Dict, List, Tuple, Set, FrozenSet, Iterator, Optional, Callable
import itertools
import jax
import numpy as np
import collections
from jaxtyping import PyTree

def rngs_from_keys(rng: Any, keys: Union[List[str], Set[str], Tuple[str], FrozenSet[str]]) -> Dict[str, Any]:
    rngs = {}
    for k in keys:
        rng, new_rng = jax.random.split(rng)
        rngs[k] = new_rng
    return rngs

def split_rng_pytree(rng_pytree: PyTree[Any], splits: int=2) -> PyTree[Any]:
    if len(jax.tree_util.tree_leaves(rng_pytree)) == 0:
        return tuple([rng_pytree for _ in range(splits)])
    outer_tree_def = jax.tree_util.tree_structure(rng_pytree)
    split_rngs = jax.tree_util.tree_map(lambda x: tuple(jax.random.split(x, splits)), rng_pytree)
    return jax.tree_util.tree_transpose(outer_tree_def, jax.tree_util.tree_structure(tuple([0 for _ in range(splits)])), split_rngs)

def batch_idxs(rng: Any, data_size: int, bsize: int) -> np.ndarray:
    steps_per_epoch = data_size // bsize
    permutations = np.asarray(jax.random.permutation(rng, data_size))
    permutations = permutations[:steps_per_epoch * bsize]
    permutations = permutations.reshape(steps_per_epoch, bsize)
    return permutations

def batch_iterator(rng: Any, dataset: Any, bsize: int, postproc_f: Optional[Callable]=None) -> Iterator:
    if postproc_f is None:
        postproc_f = lambda x: x
    batches = batch_idxs(rng, len(dataset), bsize)
    for idxs in batches:
        yield postproc_f(dataset[idxs])

def prefetch(iterator: Iterator, queue_size: int = 2) -> Iterator:
    # See https://flax.readthedocs.io/en/latest/_modules/flax/jax_utils.html#prefetch_to_device
    # queue_size = 2 should be ok for one GPU.

    queue = collections.deque()

    def enqueue(n):
        for item in itertools.islice(iterator, n):
            queue.append(item)

    enqueue(queue_size)
    while queue:
        yield queue.popleft()
        enqueue(1)


# --- cifar_mnist/flax/logs.py ---
from collections import namedtuple
from typing import Any, Dict, List, Optional
import jax
import jax.numpy as jnp
import numpy as np
from functools import reduce
from jaxtyping import PyTree

# mean, count can be scalar or vector
LogTuple = namedtuple('LogTuple', ['mean', 'count'])

def is_scalar(x):
    return isinstance(x, int) or isinstance(x, float) or (isinstance(x, jnp.ndarray) and len(x.shape) == 0) or (isinstance(x, np.ndarray) and len(x.shape) == 0)

def is_vector(x):
    return (isinstance(x, jnp.ndarray) and len(x.shape) > 0) or (isinstance(x, np.ndarray) and len(x.shape) > 0)

def is_leaf(x):
    return is_vector(x) or is_scalar(x) or isinstance(x, LogTuple)

def un_jax_logs(logs):
    def un_jax_log_f(x):
        if isinstance(x, jnp.ndarray) or isinstance(x, np.ndarray):
            if len(x.shape) == 0:
                return x.item()
            else:
                return x.tolist()
        return x
    return jax.tree_util.tree_map(un_jax_log_f, logs)

def reduce_elements(x):
    if isinstance(x, LogTuple):
        if is_vector(x.mean):
            return jnp.nan_to_num((x.mean * x.count).sum() / x.count.sum(), nan=0, posinf=0, neginf=0)
        return x.mean
    if is_vector(x):
        return x.mean()
    if is_scalar(x):
        return x
    raise NotImplementedError

def combine_elements(a, b):
    if is_scalar(a):
        a = LogTuple(a, 1)
    if is_scalar(b):
        b = LogTuple(b, 1)
    if isinstance(a, LogTuple) and isinstance(b, LogTuple):
        return LogTuple(jnp.nan_to_num((a.mean * a.count + b.mean * b.count) / (a.count + b.count), nan=0, posinf=0, neginf=0), a.count + b.count)
    if is_vector(a) and is_vector(b):
        return jnp.concatenate((a, b,), axis=0)
    raise NotImplementedError

def reduce_logs(logs: List[PyTree], initial_log: Optional[PyTree]=None) -> PyTree:
    tree_def = jax.tree_util.tree_structure(logs[0], is_leaf=is_leaf)
    flat_logs = list(zip(*[jax.tree_util.tree_flatten(log, is_leaf=is_leaf)[0] for log in logs]))
    if initial_log is None:
        return jax.tree_util.tree_unflatten(tree_def, [reduce(combine_elements, item) for item in flat_logs])
    return jax.tree_util.tree_unflatten(tree_def, [reduce(combine_elements, item, initial_log) for item in flat_logs])

def pool_logs(logs: PyTree) -> Any:
    logs = jax.tree_util.tree_map(reduce_elements, logs, is_leaf=is_leaf)
    logs = jax.device_get(logs)
    logs = un_jax_logs(logs)
    return logs

def label_logs(logs: Any, label: str, to_add: Dict[str, Any]) -> Dict[str, Any]:
    return {label: logs, **to_add}

def log(logs: Any, use_wandb: bool) -> None:
    if use_wandb:
        raise NotImplementedError  # scaffolding: wandb is not used here
    print(logs)


# --- cifar_mnist/flax/src.py (ImageData, augmentations, MLP) ---
from typing import Any, List, Tuple, Union
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from jaxtyping import PyTree
class _OldJaxtypingAnnotation(dict):  # scaffolding: the old jaxtyping f32/u8 shape annotations are gone from jaxtyping
    def __missing__(self, key):
        return Any
f32 = u8 = _OldJaxtypingAnnotation()  # scaffolding

class ImageData:
    def __init__(self, imgs: np.ndarray, labels: np.ndarray, n_labels: int):
        self.imgs = imgs
        self.labels = labels
        self.n_labels = n_labels

    def __len__(self):
        return self.imgs.shape[0]

    def __getitem__(self, idx: Union[int, np.ndarray]) -> Tuple[u8, u8]:
        imgs, labels = self.imgs[idx], self.labels[idx]
        imgs, labels = jnp.uint8(imgs), jnp.uint8(labels)
        return imgs, labels

def random_crop_augment(rng: Any, img: f32["h w d"], padding: int) -> f32["h w d"]:
    crop_from = jax.random.randint(rng, (2,), 0, 2 * padding + 1)
    crop_from = jnp.concatenate((crop_from, jnp.zeros((1,), dtype=jnp.int32),), axis=0)
    padded_img = jnp.pad(img, ((padding, padding), (padding, padding), (0, 0),), mode='edge')
    return jax.lax.dynamic_slice(padded_img, crop_from, img.shape)

def random_flip_augment(rng: Any, img: f32["h w d"]) -> f32["h w d"]:
    should_flip = jax.random.bernoulli(rng, 0.5)
    return jax.lax.cond(should_flip, lambda x: jnp.flip(x, axis=1), lambda x: x, img)

def batched_augmentation(rng: Any, imgs: f32["b h w d"], padding: int=4) -> f32["b h w d"]:
    rng, *new_rngs = jax.random.split(rng, imgs.shape[0]+1)
    imgs = jax.vmap(random_crop_augment, (0, 0, None,))(jnp.stack(new_rngs, axis=0), imgs, padding)
    rng, *new_rngs = jax.random.split(rng, imgs.shape[0]+1)
    imgs = jax.vmap(random_flip_augment, (0, 0,))(jnp.stack(new_rngs, axis=0), imgs)
    return imgs

class MLP(nn.Module):
    output_shapes: List[int]
    dropout_rate: float
    
    def setup(self):
        self.linears = [nn.Dense(self.output_shapes[i]) for i in range(len(self.output_shapes))]
        self.dropouts = [nn.Dropout(self.dropout_rate) for _ in range(len(self.output_shapes)-1)]
    
    def __call__(self, x: u8['b h w d'], *, train: bool, do_aug: bool=True, crop_aug_padding: int=4) -> f32['b label']:
        x = x.astype(jnp.float32) / 255.0
        if train and do_aug:
            x = batched_augmentation(self.make_rng('augment'), x, crop_aug_padding)
        x = jnp.reshape(x, (x.shape[0], -1))
        for i in range(len(self.output_shapes)-1):
            x = self.linears[i](x)
            x = self.dropouts[i](x, deterministic=not train)
            x = jax.nn.relu(x)
        x = self.linears[-1](x)
        return x
    
    def loss(self, x: u8['b h w d'], y: u8['b'], *, train: bool, do_aug: bool=True, crop_aug_padding: int=4) -> Tuple[f32, PyTree]:
        predictions = self(x, train=train, do_aug=do_aug, crop_aug_padding=crop_aug_padding)
        loss = optax.softmax_cross_entropy_with_integer_labels(predictions, y).mean()
        logs = {'loss': loss, 'acc': (jnp.argmax(predictions, axis=1) == y).mean()}
        return loss, logs



# --- cifar_mnist/flax/train_loop.py ---
from typing import Any
import optax
import jax.numpy as jnp
from functools import partial
from typing import Optional, Dict, Any
from dataclasses import dataclass, asdict
from collections import deque
import jax
import os
import pickle as pkl
import chex
tqdm = lambda it, **kw: it  # scaffolding: no progress bars
from flax.core.frozen_dict import freeze
from flax.serialization import to_bytes
import json

@dataclass
class StandardEvaluator:  # ConfigScriptNoCache base (micro_config) dropped: scaffolding
    eval_data: Any
    model: Any
    rng: Any
    bsize: int
    prefetch_batches: Optional[int]
    eval_batches: Optional[int]
    loss_kwargs: Dict[str, Any]
    jit: bool

    def unroll(self, metaconfig):

        # conditionally block jit
        if not self.jit:
            fake_jit = chex.fake_jit()
            fake_jit.start()

        # get rng
        rng = self.rng.unroll(metaconfig)

        # setup dataset
        eval_dataset = self.eval_data.unroll(metaconfig)
        def dataloader(rng):
            iterator = batch_iterator(rng, eval_dataset, self.bsize)
            if self.prefetch_batches is not None:
                iterator = prefetch(iterator, self.prefetch_batches)
            return iterator

        # load model
        model, variables, rng_keys = self.model.unroll(metaconfig)

        # define eval loss
        @partial(jax.jit, static_argnums=(2,), static_argnames=list(self.loss_kwargs.keys()))
        def eval_loss(variables, rng, rng_keys, *args, **kwargs):
            rngs = rngs_from_keys(rng, rng_keys)
            _, logs = model.apply(variables, *args, method=model.loss, rngs=rngs, 
                                  mutable=False, train=False, **kwargs)
            return logs
        
        # setup evaluator loop state
        eval_logs = []
        rng = self.rng.unroll(metaconfig)

        # eval on batches
        rng, new_rng = jax.random.split(rng)
        for i, items in enumerate(dataloader(new_rng)):
            
            # conditionally terminate early
            if self.eval_batches is not None and i >= self.eval_batches:
                break

            # get eval logs
            rng, new_rng = jax.random.split(rng)
            logs = eval_loss(variables, new_rng, rng_keys, *items, **self.loss_kwargs)
            EVAL_CALLS.append(1)  # scaffolding
            eval_logs.append(logs)
        
        # gather and postproc eval logs
        eval_logs = pool_logs(reduce_logs(eval_logs))

        # undo conditional jit block
        if not self.jit:
            fake_jit.stop()

        return eval_logs['loss'], eval_logs

@dataclass
class TrainLoop:  # ConfigScript base (micro_config) dropped: scaffolding
    train_data: Any
    train_state: Any
    evaluator: StandardEvaluator
    rng: Any
    save_dir: Optional[str]
    max_checkpoints: Optional[int]
    epochs: int
    max_steps: Optional[int]
    bsize: int
    prefetch_batches: Optional[int]
    log_every: int
    eval_every: int
    save_every: Optional[int]
    jit: bool
    use_wandb: bool
    wandb_project: str
    loss_kwargs: Dict[str, Any]

    def unroll(self, metaconfig):
        print('using config:', asdict(self))
        print('using device:', jax.devices()[0])
        
        # save configs
        save_dir = metaconfig.convert_path(self.save_dir)
        if save_dir is not None:
            if not os.path.exists(save_dir):
                os.makedirs(save_dir)
            with open(os.path.join(save_dir, 'config.json'), 'w') as f:
                json.dump(asdict(self), f)
            with open(os.path.join(save_dir, 'config.pkl'), 'wb') as f:
                pkl.dump(self, f)
        
        # initalize wandb
        if self.use_wandb:
            wandb.init(project=self.wandb_project, config=asdict(self))
        
        # conditionally block jit
        if not self.jit:
            fake_jit = chex.fake_jit()
            fake_jit.start()
        
        # get rng
        rng = self.rng.unroll(metaconfig)
        
        # setup dataset
        train_dataset = self.train_data.unroll(metaconfig)
        def dataloader(rng):
            iterator = batch_iterator(rng, train_dataset, self.bsize)
            if self.prefetch_batches is not None:
                iterator = prefetch(iterator, self.prefetch_batches)
            return iterator

        # setup training objects
        training_state, model, model_state, rng_keys = self.train_state.unroll(metaconfig)

        # define training step
        @partial(jax.jit, static_argnums=(0,4,), static_argnames=list(self.loss_kwargs.keys()))
        def step_fn(loss_fn, training_state, model_state, rng, rng_keys, *args, **kwargs):
            def grad_loss(params, model_state, rngs, *args, **kwargs):
                variables = freeze({'params': params, **model_state})
                (loss, logs), variables = training_state.apply_fn(variables, *args, rngs=rngs, train=True, 
                                                                  mutable=True, method=loss_fn, **kwargs)
                model_state, _ = variables.pop('params')
                return loss, (logs, model_state)
            rngs = rngs_from_keys(rng, rng_keys)
            (_, (logs, model_state,)), grads = jax.value_and_grad(grad_loss, has_aux=True)(training_state.params, model_state, rngs, *args, **kwargs)
            training_state = training_state.apply_gradients(grads=grads)
            return logs, training_state, model_state

        # initalize training loop state
        train_logs = []
        best_perf = float('inf')
        saved_checkpoints = deque([])
        rng = self.rng.unroll(metaconfig)
        step = 0

        # train loop
        for epoch in tqdm(range(self.epochs)):
            rng, new_rng = jax.random.split(rng)
            for items in tqdm(dataloader(new_rng), total=(len(train_dataset) // self.bsize)):
                
                # step model and get training logs
                rng, new_rng = jax.random.split(rng)
                logs, training_state, model_state = step_fn(model.loss, training_state, model_state, new_rng, rng_keys, *items, **self.loss_kwargs)
                train_logs.append(logs)
                
                # publish training logs
                if (step + 1) % self.log_every == 0:
                    logs = reduce_logs(train_logs)
                    logs = pool_logs(label_logs(logs, 'train', {'step': step+1, 'epoch': epoch}))
                    log(logs, self.use_wandb)
                
                # clear training logs
                if (step + 1) % self.train_state.optim.grad_accum_steps == 0:
                    train_logs = []
                
                # begin evaluation
                if (step + 1) % self.eval_every == 0:

                    # get eval logs
                    self.evaluator.model.variables = freeze({'params': training_state.params, **model_state})
                    eval_perf, eval_logs = self.evaluator.unroll(metaconfig)

                    # publish eval logs
                    eval_logs = pool_logs(label_logs(eval_logs, 'eval', {'step': step+1, 'epoch': epoch}))
                    log(eval_logs, self.use_wandb)

                    # conditionally save best model and optimizer state
                    if save_dir is not None and eval_perf < best_perf:
                        print('new best model! Saving ...')
                        with open(os.path.join(save_dir, 'model.pkl'), 'wb') as f:
                            pkl.dump(to_bytes(freeze({'params': training_state.params, **model_state})), f)
                        with open(os.path.join(save_dir, 'optim.pkl'), 'wb') as f:
                            pkl.dump(to_bytes(training_state.opt_state), f)
                        print('saved.')
                        best_perf = eval_perf
                
                # periodically save checkpoint
                if save_dir is not None and self.save_every is not None and (step + 1) % self.save_every == 0:
                    print('saving checkpoint...')

                    # conditionally delete old checkpoints
                    if (self.max_steps is not None) and (len(saved_checkpoints) >= self.max_steps):
                        os.system('rm -rf %s' % (saved_checkpoints.popleft()))
                    
                    # save
                    with open(os.path.join(save_dir, 'model_%d.pkl' % (step+1)), 'wb') as f:
                        pkl.dump(to_bytes(freeze({'params': training_state.params, **model_state})), f)
                    saved_checkpoints.append(os.path.join(save_dir, 'model_%d.pkl' % (step+1)))
                    print('saved.')

                # conditionally terminate
                if self.max_steps is not None and (step + 1) >= self.max_steps:
                    return

                step += 1
        
        # undo conditional jit block
        if not self.jit:
            fake_jit.stop()


# --- scaffolding: stand-ins for the micro_config configs of base_configs.py / flax_configs.py / main.py ---
import numpy as np
from flax.training.train_state import TrainState

EVAL_CALLS = []  # scaffolding


class MetaConfigStandin:  # scaffolding
    def convert_path(self, path):
        return path


class RNGSeedStandin:  # scaffolding: RNGSeed(value).unroll -> PRNGKey
    def __init__(self, value):
        self.value = value

    def unroll(self, metaconfig):
        return jax.random.PRNGKey(self.value)


class DataStandin:  # scaffolding: MNISTDataConfig -> ImageData with random 28x28 images
    def __init__(self, n, seed):
        self.n, self.seed = n, seed

    def unroll(self, metaconfig):
        r = np.random.default_rng(self.seed)
        return ImageData(r.integers(0, 256, (self.n, 28, 28, 1)), r.integers(0, 10, (self.n,)), 10)


class MLPConfigStandin:  # scaffolding: MLPConfig + ConfigScriptModel.meta_unroll (init, or the variables set by the train loop)
    def __init__(self):
        self.variables = None
        self._model = MLP([128, 128, 10], 0.5)

    def unroll(self, metaconfig):
        if self.variables is None:
            rngs = {'params': jax.random.PRNGKey(1), 'dropout': jax.random.PRNGKey(2), 'augment': jax.random.PRNGKey(3)}
            self.variables = self._model.init(rngs, jnp.zeros((1, 28, 28, 1)), train=True)
        return self._model, self.variables, frozenset({'dropout', 'augment'})


class OptimStandin:  # scaffolding: AdamWConfig
    grad_accum_steps = 1


class TrainStateStandin:  # scaffolding: TrainStateConfig.unroll
    def __init__(self, model_config):
        self.model = model_config
        self.optim = OptimStandin()

    def unroll(self, metaconfig):
        model, variables, rng_keys = self.model.unroll(metaconfig)
        model_state, params = variables.pop('params')
        state = TrainState.create(apply_fn=model.apply, params=params, tx=optax.adamw(1e-3, weight_decay=0.0))
        return state, model, model_state, rng_keys


train_model = MLPConfigStandin()  # scaffolding
evaluator = StandardEvaluator(  # scaffolding: evaluator as in main.py, smaller
    eval_data=DataStandin(32, 1), model=MLPConfigStandin(), rng=RNGSeedStandin(0), bsize=8,
    prefetch_batches=None, eval_batches=2, loss_kwargs={}, jit=True,
)
train = TrainLoop(  # scaffolding: train loop as in main.py, smaller
    train_data=DataStandin(64, 0), train_state=TrainStateStandin(train_model), evaluator=evaluator,
    rng=RNGSeedStandin(1), save_dir=None, max_checkpoints=None, epochs=1, max_steps=None, bsize=8,
    prefetch_batches=None, log_every=1000, eval_every=2, save_every=None, jit=True, use_wandb=False,
    wandb_project='jax_v_pytorch', loss_kwargs={},
)
train.unroll(MetaConfigStandin())  # scaffolding
_report({"jit(eval_loss)"}, len(EVAL_CALLS))  # scaffolding
