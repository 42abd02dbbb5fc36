# source: https://github.com/SparkyTruck/deepmd-jax/commit/036909f56d9120642cf220f42876751f7a26c13f
# expect: shape-churn at line 66
# runtime: COMPILES 2 CALLS 4
# why: train() starts the loss-tracking state dict from Python floats, which enter the jitted train_step weakly typed; the returned averages are strongly typed float32, so the second step recompiles (2 compiles for 4 steps); static_argnames=('static_args') is a plain string, which jit accepts as one name.
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


# deepmd_jax/train.py: the training-step definitions inside train(), kept at their original indentation
import jax
import optax
import numpy as np
import jax.numpy as jnp
import flax.linen as nn
from functools import partial


class _Model:  # scaffolding: DPModel.get_loss_fn stand-in (a pair-potential energy/force loss)
    def get_loss_fn(self):  # scaffolding
        def loss_fn(variables, batch, pref, static_args):  # scaffolding
            def energy(c):  # scaffolding
                d = c[:, None, :] - c[None, :, :]  # scaffolding
                r2 = jnp.sum(d * d, -1) + jnp.eye(c.shape[0])  # scaffolding
                return variables['eps'] * jnp.sum(jnp.triu(1.0 / r2, 1)) * static_args['type_count'][0]  # scaffolding
            e = jax.vmap(energy)(batch['coord'])  # scaffolding
            f = -jax.vmap(jax.grad(energy))(batch['coord'])  # scaffolding
            le = jnp.mean((e - batch['energy']) ** 2)  # scaffolding
            lf = jnp.mean((f - batch['force']) ** 2)  # scaffolding
            return pref['e'] * le + pref['f'] * lf, (le, lf)  # scaffolding
        return loss_fn, jax.value_and_grad(loss_fn, has_aux=True)  # scaffolding


def train(model_type='energy', hybrid=False, lr=1e-3, s_pref_e=0.02, l_pref_e=1.0, s_pref_f=1000.0, l_pref_f=1.0,  # scaffolding: the locals train() has set up by this point
          print_loss_smoothing=20, steps=4):  # scaffolding
    model = _Model()  # scaffolding
    lr_scheduler = optax.exponential_decay(lr, 100, 0.95)  # scaffolding
    optimizer = optax.adam(lr_scheduler)  # scaffolding
    variables = {'eps': jnp.array(0.1, dtype=jnp.float32)}  # scaffolding: float32 parameters, as from model init
    opt_state = optimizer.init(variables)  # scaffolding
    train_data_path_obs = []  # scaffolding
    # define training step
    loss_fn, loss_and_grad_fn = model.get_loss_fn()
    if hybrid:
        loss_obs, loss_and_grad_obs = model.get_observable_loss_fn()

    state_obs = {}
    if model_type != 'atomic':
        state = {'loss_avg': 0., 'le_avg': 0., 'lf_avg': 0., 'iteration': 0}
    else:
        state = {'loss_avg': 0., 'iteration': 0}
    if hybrid:
        _single_state_obs = {'lobs_avg': 0., 'obs_term_avg': 0., 'obs_mean': 0., 'logweights': [0.], 'ESS': 1. }
        state_obs = {k: _single_state_obs for k in range(len(train_data_path_obs))}

    @partial(jax.jit, static_argnames=('static_args'))
    def train_step(batch, variables, opt_state, state, state_obs, static_args):
        r = lr_scheduler(state['iteration']) / lr
        if model_type != 'atomic':
            pref = {'e': s_pref_e*r + l_pref_e*(1-r),
                    'f': s_pref_f*r + l_pref_f*(1-r)}
            (loss_total, (loss_e, loss_f)), grads = loss_and_grad_fn(variables,
                                                                    batch,
                                                                    pref,
                                                                    static_args)
            for key, value in zip(['loss_avg', 'le_avg', 'lf_avg'],
                                  [loss_total, loss_e, loss_f]):
                state[key] = state[key] * (1-1/print_loss_smoothing) + value
        else:
            loss_total, grads = loss_and_grad_fn(variables,
                                                 batch,
                                                 static_args)
            state['loss_avg'] = state['loss_avg'] * (1-1/print_loss_smoothing) + loss_total
        updates, opt_state = optimizer.update(grads, opt_state, variables)
        variables = optax.apply_updates(variables, updates)
        state['iteration'] += 1
        return variables, opt_state, state
    
    # train_step_obs(...) is cut (scaffolding): hybrid observable training only, not exercised here
    
    # define validation step
    @partial(jax.jit, static_argnames=('static_args',))
    def val_step(batch, variables, static_args):
        if model_type != 'atomic':
            pref = {'e': 1, 'f': 1}
            _, (loss_e, loss_f) = loss_fn(variables,
                                          batch,
                                          pref,
                                          static_args)
            return loss_e, loss_f
        else:
            loss_total = loss_fn(variables,
                                 batch,
                                 static_args)
            return loss_total
        
    static_args = nn.FrozenDict({'type_count': (4,), 'lattice': {'lattice_cand': ((0, 0, 0),), 'lattice_max': 1, 'ortho': True}})  # scaffolding
    rs = np.random.RandomState(0)  # scaffolding
    for it in range(steps):  # scaffolding: the training loop's calls
        batch = {'coord': jnp.asarray(rs.rand(2, 4, 3) * 3, dtype=jnp.float32), 'energy': jnp.zeros(2), 'force': jnp.zeros((2, 4, 3))}  # scaffolding
        variables, opt_state, state = train_step(batch, variables, opt_state, state, state_obs, static_args)  # scaffolding
    loss_e, loss_f = val_step(batch, variables, static_args)  # scaffolding
    return state, float(loss_e)  # scaffolding


try:  # scaffolding
    state, val_le = train()  # scaffolding
    print(int(state['iteration']), val_le)  # scaffolding
    _report({"jit(train_step)"}, 4)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
