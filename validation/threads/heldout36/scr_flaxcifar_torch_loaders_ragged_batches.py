# source: https://github.com/jvlmdr/flax-cifar/blob/6a0e0baf6af28fd42767e59b7c62101eda8baa0c/main.py
# expect: shape-churn at line 137
# runtime: COMPILES 4 CALLS 7
# why: Both torch DataLoaders are built without drop_last (CIFAR-10: 50000 = 390*128 + 80 train, 10000 = 78*128 + 16 val), so the jitted train_step and apply_model each compile a second time for the short last batch.

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
import collections
from types import SimpleNamespace  # scaffolding

from flax import linen as nn
import jax
from jax import numpy as jnp
from jax import random
from jax import tree_util
import jaxopt
import numpy as np
import optax
import torch.utils.data

FLAGS = SimpleNamespace(eval_batch_size=128, loader_num_workers=0, loader_prefetch_factor=None)  # scaffolding: absl flags (0 workers)


class TinyNet(nn.Module):  # scaffolding: stand-in for models.wide_resnet.WideResNet (with BatchNorm)
    num_classes: int = 10

    @nn.compact
    def __call__(self, x, norm_kwargs):
        x = nn.Conv(8, (3, 3))(x)
        x = nn.BatchNorm(**norm_kwargs)(x)
        return nn.Dense(self.num_classes)(nn.relu(x).mean(axis=(1, 2)))


def setup_data():  # scaffolding: random tensors instead of CIFAR-10 (300 train / 200 val 8x8 images, CHW like ToTensor)
    g = torch.Generator().manual_seed(0)
    train = torch.utils.data.TensorDataset(torch.rand(300, 3, 8, 8, generator=g), torch.randint(0, 10, (300,), generator=g))
    val = torch.utils.data.TensorDataset(torch.rand(200, 3, 8, 8, generator=g), torch.randint(0, 10, (200,), generator=g))
    return 10, (8, 8, 3), train, val


N_CALLS = 0  # scaffolding


def main(_):
    global N_CALLS  # scaffolding
    config = SimpleNamespace(train=SimpleNamespace(base_learning_rate=0.1, num_epochs=1, batch_size=128,  # scaffolding: configs/default.py, 1 epoch
                                                   weight_decay=0.0003, weight_decay_vars='all'))

    num_classes, input_shape, train_dataset, val_dataset = setup_data()
    train_loader = torch.utils.data.DataLoader(
        dataset=train_dataset,
        batch_size=config.train.batch_size,
        shuffle=True,
        pin_memory=False,
        num_workers=FLAGS.loader_num_workers,
        prefetch_factor=FLAGS.loader_prefetch_factor)
    val_loader = torch.utils.data.DataLoader(
        dataset=val_dataset,
        batch_size=FLAGS.eval_batch_size,
        shuffle=False,
        pin_memory=False,
        num_workers=FLAGS.loader_num_workers,
        prefetch_factor=FLAGS.loader_prefetch_factor)

    norm = nn.BatchNorm
    norm_kwargs = lambda train: {'use_running_average': not train}

    model = TinyNet(num_classes)  # scaffolding: make_model(config, num_classes, input_shape, norm=norm)
    rng_init, _ = random.split(random.PRNGKey(0))
    init_vars = model.init(rng_init, jnp.zeros((1,) + input_shape), norm_kwargs=norm_kwargs(train=True))
    params, batch_stats = init_vars['params'], init_vars['batch_stats']

    total_steps = config.train.num_epochs * len(train_loader)
    schedule = optax.cosine_decay_schedule(config.train.base_learning_rate, total_steps)
    tx = optax.sgd(schedule, momentum=0.9)
    opt_state = tx.init(params)

    loss_with_logits = jax.vmap(jaxopt.loss.multiclass_logistic_loss)

    def objective_fn(params, mutable_vars, data):
        inputs, labels = data
        model_vars = {'params': params, **mutable_vars}
        outputs, mutated_vars = model.apply(
            model_vars, inputs, norm_kwargs=norm_kwargs(train=True),
            mutable=list(mutable_vars.keys()))
        example_loss = loss_with_logits(labels, outputs)
        data_loss = jnp.mean(example_loss)
        wd_vars = list(tree_util.tree_leaves(params))  # (weight_decay_vars == 'all' branch)
        wd_loss = 0.5 * sum(jnp.sum(jnp.square(x)) for x in wd_vars)
        objective = data_loss + config.train.weight_decay * wd_loss
        return objective, (outputs, mutated_vars)

    @jax.jit
    def train_step(opt_state, params, mutable_vars, data):
        objective_and_grad_fn = jax.value_and_grad(objective_fn, has_aux=True)
        (objective, aux), grads = objective_and_grad_fn(params, mutable_vars, data)
        outputs, mutated_vars = aux
        updates, opt_state = tx.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        return opt_state, params, mutated_vars, objective, outputs

    @jax.jit
    def apply_model(params, batch_stats, inputs):
        return model.apply(
            {'params': params, 'batch_stats': batch_stats}, inputs,
            norm_kwargs=norm_kwargs(train=False))

    for epoch in range(config.train.num_epochs + 1):
        metrics = {}

        if epoch > 0:
            train_outputs = collections.defaultdict(list)
            for inputs, labels in train_loader:  # scaffolding: tqdm dropped
                inputs, labels = jnp.asarray(inputs.numpy()), jnp.asarray(labels.numpy())
                inputs = jnp.moveaxis(inputs, -3, -1)
                opt_state, params, mutated_vars, objective, logits = train_step(
                    opt_state, params, {'batch_stats': batch_stats}, (inputs, labels))
                N_CALLS += 1  # scaffolding
                batch_stats = mutated_vars['batch_stats']
                loss = loss_with_logits(labels, logits)
                pred = jnp.argmax(logits, axis=-1)
                acc = (pred == labels)
                train_outputs['acc'].append(acc)
                train_outputs['loss'].append(loss)
                train_outputs['objective'].append([objective])
            train_outputs = {k: np.concatenate(v) for k, v in train_outputs.items()}
            metrics.update({
                'train_loss': np.mean(train_outputs['loss']),
                'train_acc': np.mean(train_outputs['acc']),
                'train_objective': np.mean(train_outputs['objective']),
            })

        val_outputs = collections.defaultdict(list)
        for inputs, labels in val_loader:  # scaffolding: tqdm dropped
            inputs, labels = jnp.asarray(inputs.numpy()), jnp.asarray(labels.numpy())
            inputs = jnp.moveaxis(inputs, -3, -1)
            logits = apply_model(params, batch_stats, inputs)
            N_CALLS += 1  # scaffolding
            loss = loss_with_logits(labels, logits)
            pred = jnp.argmax(logits, axis=-1)
            acc = (pred == labels)
            val_outputs['acc'].append(acc)
            val_outputs['loss'].append(loss)
        val_outputs = {k: np.concatenate(v) for k, v in val_outputs.items()}
        metrics.update({
            'val_loss': np.mean(val_outputs['loss']),
            'val_acc': np.mean(val_outputs['acc']),
        })
        print('epoch {:d}: val_acc {:.2%}'.format(epoch, metrics['val_acc']))  # scaffolding: wandb.log dropped


main(None)  # scaffolding
_report({"jit(train_step)", "jit(apply_model)"}, N_CALLS)
