# source: https://github.com/ThomasMousseau/gflownet/commit/90b39322014e5e39fae0bbe97b521c9f1b6a5ac4
# expect: shape-churn at line 417
# runtime: COMPILES 8 CALLS 10
# why: convert_batch_to_jax_arrays hands jax_grad_step arrays whose length is the number of states in the sampled batch, which changes every iteration, so the jitted gradient step recompiles for almost every batch.

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
# gflownet/trainers/jax_minimal.py of ThomasMousseau/gflownet at 90b39322^ (batch conversion and the JAX training loop; logging, buffer and PyTorch sync cut)
"""
Minimal JAX trainer - Phase 1: JIT only the backpropagation
Keeps PyTorch GFlowNetAgent but JITs gradient computation.
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, value_and_grad, grad
import equinox as eqx
import torch.nn as nn
import optax
from functools import partial
from tqdm import tqdm


import torch


# --- scaffolding: stand-ins for gflownet's Batch, agent, config and PyTorch<->JAX parameter sync (grid env, 2-d, length 5) ---
import types  # scaffolding
import equinox as _eqx  # scaffolding


class _GridEnv:  # scaffolding
    length, n_dim, n_actions = 5, 2, 3  # scaffolding

    def action2index(self, action):  # scaffolding
        return action[0]  # scaffolding


def _onehot(state):  # scaffolding
    v = np.zeros(10, dtype=np.float32)  # scaffolding
    v[state[0]] = 1.0  # scaffolding
    v[5 + state[1]] = 1.0  # scaffolding
    return v  # scaffolding


def _sample_traj(rng):  # scaffolding: random walk on the grid until end-of-sequence
    state, steps = [0, 0], []  # scaffolding
    while True:  # scaffolding
        a = int(rng.integers(0, 3))  # scaffolding
        if a < 2 and state[a] == 4:  # scaffolding
            a = 2  # scaffolding
        parent = list(state)  # scaffolding
        if a < 2:  # scaffolding
            state[a] += 1  # scaffolding
        steps.append((parent, a, list(state)))  # scaffolding
        if a == 2:  # scaffolding
            return steps  # scaffolding


class Batch:  # scaffolding
    def __init__(self, env=None, proxy=None, device=None, float_type=None):  # scaffolding
        self.env, self.proxy, self.device, self.trajs = env, proxy, device, []  # scaffolding

    def merge(self, other):  # scaffolding
        self.trajs = self.trajs + other.trajs  # scaffolding

    def _steps(self):  # scaffolding
        return [(t, s) for t, traj in enumerate(self.trajs) for s in traj]  # scaffolding

    def __len__(self):  # scaffolding
        return len(self._steps())  # scaffolding

    @property  # scaffolding
    def actions(self):  # scaffolding
        return [(s[1], 0) for _, s in self._steps()]  # scaffolding

    @property  # scaffolding
    def traj_indices(self):  # scaffolding
        return [t for t, _ in self._steps()]  # scaffolding

    @property  # scaffolding
    def envs(self):  # scaffolding
        return [self.env] * len(self.trajs)  # scaffolding

    def get_trajectory_indices(self, consecutive=True):  # scaffolding
        return torch.tensor(self.traj_indices, dtype=torch.int32)  # scaffolding

    def get_n_trajectories(self):  # scaffolding
        return len(self.trajs)  # scaffolding

    def get_states(self, policy=True):  # scaffolding
        return torch.tensor(np.stack([_onehot(s[2]) for _, s in self._steps()]))  # scaffolding

    def get_parents(self, policy=True):  # scaffolding
        return torch.tensor(np.stack([_onehot(s[0]) for _, s in self._steps()]))  # scaffolding

    def get_terminating_rewards(self, log=False, sort_by="trajectory"):  # scaffolding
        r = torch.tensor([1.0 + sum(traj[-1][2]) for traj in self.trajs])  # scaffolding
        return torch.log(r) if log else r  # scaffolding

    def get_rewards(self):  # scaffolding
        return torch.ones(len(self))  # scaffolding

    def get_logprobs(self, backward=False):  # scaffolding
        return torch.full((len(self),), -1.0), None  # scaffolding

    def get_masks_forward(self, of_parents=True):  # scaffolding
        return torch.zeros((len(self), 3), dtype=torch.bool)  # scaffolding

    def get_masks_backward(self):  # scaffolding
        return torch.zeros((len(self), 3), dtype=torch.bool)  # scaffolding


class _Agent:  # scaffolding
    it, n_train_steps, sttr, ttsr, device, float = 1, 10, 1, 1, "cpu", torch.float32  # scaffolding: 10 iterations
    batch_size = types.SimpleNamespace(forward=4, backward_dataset=0, backward_replay=0)  # scaffolding
    env, proxy, collect_backwards_masks = _GridEnv(), object(), True  # scaffolding
    logger = types.SimpleNamespace(progressbar={"skip": True})  # scaffolding
    _rng = np.random.default_rng(3)  # scaffolding

    def sample_batch(self, n_forward, n_train, n_replay, collect_forwards_masks, collect_backwards_masks):  # scaffolding
        b = Batch(self.env, self.proxy, self.device)  # scaffolding
        b.trajs = [_sample_traj(self._rng) for _ in range(n_forward)]  # scaffolding
        return b, None  # scaffolding


_opt = types.SimpleNamespace(lr=1e-3, lr_decay_period=1000, lr_decay_gamma=0.5, lr_z_mult=10, adam_beta1=0.9, adam_beta2=0.999)  # scaffolding
config = types.SimpleNamespace(gflownet=types.SimpleNamespace(optimizer=_opt), seed=0,  # scaffolding
                               loss={"_target_": "gflownet.losses.TrajectoryBalance"}, env=types.SimpleNamespace(length=5, n_dim=2))  # scaffolding


def convert_params_to_jax(agent, config, key):  # scaffolding: equinox MLPs instead of the PyTorch policy conversion
    kf, kb = jax.random.split(key)  # scaffolding
    f_params, f_static = _eqx.partition(_eqx.nn.MLP(10, 3, 16, 2, key=kf), _eqx.is_array)  # scaffolding
    b_params, b_static = _eqx.partition(_eqx.nn.MLP(10, 3, 16, 2, key=kb), _eqx.is_array)  # scaffolding
    return ({"forward_policy_trainable": f_params, "backward_policy_trainable": b_params, "logZ": jnp.zeros(16)},  # scaffolding
            {"forward_static": f_static, "backward_static": b_static})  # scaffolding


def apply_params_to_pytorch(jax_params, agent, jax_policies):  # scaffolding: no PyTorch policy to sync
    pass  # scaffolding
# --- end scaffolding ---


def convert_batch_to_jax_arrays(pytorch_batch: Batch):
    """
    Extract JAX-compatible arrays from PyTorch Batch.
    This is the bridge between PyTorch sampling and JAX training.
    """
    
    # Get trajectory indices (consecutive numbering for grouping)
    traj_indices = pytorch_batch.get_trajectory_indices(consecutive=True)
    trajectory_indices = jnp.array(traj_indices.detach().cpu().numpy(), dtype=jnp.int32)
    
    # Compute n_trajs concretely (outside JIT)
    traj_indices_np = traj_indices.detach().cpu().numpy()
    n_trajs = int(np.max(traj_indices_np)) + 1
    
    # Get states for policy input
    states_policy = pytorch_batch.get_states(policy=True)
    if isinstance(states_policy, torch.Tensor):
        states = jnp.array(states_policy.detach().cpu().numpy(), dtype=jnp.float32)
    else:
        states = jnp.array([s.detach().cpu().numpy() if isinstance(s, torch.Tensor) else s 
                           for s in states_policy], dtype=jnp.float32)
    actions = []
    for i in range(len(pytorch_batch)):
        action = pytorch_batch.actions[i]
        traj_idx = pytorch_batch.traj_indices[i]
        env = pytorch_batch.envs[traj_idx]
        
        if isinstance(action, tuple):
            action_idx = env.action2index(action) # Convert (0,0) -> 0
        else:
            action_idx = action
        
        actions.append(action_idx)
    
    actions = jnp.array(actions, dtype=jnp.int32)
    
    if pytorch_batch.proxy is None:
        print("WARNING: Batch has no proxy, using zero rewards")
        terminating_rewards = jnp.zeros(pytorch_batch.get_n_trajectories(), dtype=jnp.float32)
    else:
        terminating_rewards_tensor = pytorch_batch.get_terminating_rewards(sort_by="trajectory")
        terminating_rewards = jnp.array(terminating_rewards_tensor.detach().cpu().numpy(), dtype=jnp.float32)
    
    rewards_tensor = pytorch_batch.get_rewards()
    rewards = jnp.array(rewards_tensor.detach().cpu().numpy(), dtype=jnp.float32)
    
    logrewards_tensor = pytorch_batch.get_terminating_rewards(log=True, sort_by="trajectory")
    logrewards = jnp.array(logrewards_tensor.detach().cpu().numpy(), dtype=jnp.float32)
    
    logprobs_fwd, _ = pytorch_batch.get_logprobs(backward=False)
    logprobs_bwd, _ = pytorch_batch.get_logprobs(backward=True)
    logprobs = jnp.array(logprobs_fwd.detach().cpu().numpy(), dtype=jnp.float32)
    logprobs_rev = jnp.array(logprobs_bwd.detach().cpu().numpy(), dtype=jnp.float32)
    
    parents_policy = pytorch_batch.get_parents(policy=True)
    if isinstance(parents_policy, torch.Tensor):
        parents_policy = jnp.array(parents_policy.detach().cpu().numpy(), dtype=jnp.float32)
    else:
        parents_policy = jnp.array([p.detach().cpu().numpy() if isinstance(p, torch.Tensor) else p for p in parents_policy], dtype=jnp.float32)

    masks_forward_pt = pytorch_batch.get_masks_forward(of_parents=True)
    masks_backward_pt = pytorch_batch.get_masks_backward()
    
    masks_forward = jnp.array(masks_forward_pt.detach().cpu().numpy())
    masks_backward = jnp.array(masks_backward_pt.detach().cpu().numpy())
    
    return {
        'states': states,
        'states_policy': states,
        'actions': actions,
        'rewards': rewards,
        'terminating_rewards': terminating_rewards,
        'logprobs': logprobs,
        'logprobs_rev': logprobs_rev,
        'trajectory_indices': trajectory_indices,
        'n_trajs': n_trajs, 
        'logrewards': logrewards,
        'parents_policy': parents_policy,
        'masks_forward': masks_forward,
        'masks_backward': masks_backward,
    }


def train(agent, config):
    """
    Phase 1 JAX trainer: Uses PyTorch agent for sampling, JAX for backprop.
    
    This is the MINIMAL change to get JAX working:
    1. Keep all PyTorch code for sampling, env, buffer
    2. Only convert gradient computation to JAX
    3. Sync parameters between PyTorch and JAX each iteration
    """
    # !Setup Optax optimizer with separate LR for logZ
    lr_schedule_main = optax.exponential_decay(
        init_value=config.gflownet.optimizer.lr,
        transition_steps=config.gflownet.optimizer.lr_decay_period,
        decay_rate=config.gflownet.optimizer.lr_decay_gamma,
        staircase=True 
    )

    lr_schedule_logz = optax.exponential_decay(
        init_value=config.gflownet.optimizer.lr * config.gflownet.optimizer.lr_z_mult,
        transition_steps=config.gflownet.optimizer.lr_decay_period,
        decay_rate=config.gflownet.optimizer.lr_decay_gamma,
        staircase=True
    )
    
    max_grad_norm = 1.0  # Hard-coded, matching PyTorch

    optimizer = optax.multi_transform(
        {
            'main': optax.chain(
                optax.clip_by_global_norm(max_grad_norm), 
                optax.adam(
                    learning_rate=lr_schedule_main,
                    b1=config.gflownet.optimizer.adam_beta1,
                    b2=config.gflownet.optimizer.adam_beta2,
                    eps=1e-8
                ),
            ),
            'logz': optax.adam(
                learning_rate=lr_schedule_logz,
                b1=config.gflownet.optimizer.adam_beta1,
                b2=config.gflownet.optimizer.adam_beta2,
                eps=1e-8, 
            ),
        },
        {
            'forward_policy_trainable': 'main',
            'backward_policy_trainable': 'main',
            'logZ': 'logz'
        }
    )

    
    key = jax.random.PRNGKey(config.seed)
    jax_params, jax_policies = convert_params_to_jax(agent, config, key)
    
    has_trainable = (
        'forward_policy_trainable' in jax_params and jax_params['forward_policy_trainable'] is not None or 
        'backward_policy_trainable' in jax_params and jax_params['backward_policy_trainable'] is not None or 
        jax_params.get('logZ') is not None
    )
    
    if not has_trainable:
        print("WARNING: No trainable parameters found!")
        print("  - Forward policy is not a neural network model")
        print("  - Backward policy is not a neural network model")
        print("  - LogZ is None")
        print("  Training will proceed but parameters won't be updated.")
    
    opt_state = optimizer.init(jax_params)
    loss_type = config.loss.get('_target_', 'trajectorybalance').split('.')[-1].lower()
        
    @partial(jit, static_argnames=['loss_type', 'n_trajs', 'debug'])
    def jax_loss_wrapper(params, batch_arrays, loss_type=loss_type, n_trajs=None, debug=False):
        if loss_type == 'trajectorybalance': #TODO: implement different losses
            if 'forward_policy_trainable' in params and params['forward_policy_trainable'] is not None:
                model_f = eqx.combine(params['forward_policy_trainable'], jax_policies['forward_static'])
            else:
                model_f = jax_policies['forward'].model
            
            if 'backward_policy_trainable' in params and params['backward_policy_trainable'] is not None:
                model_b = eqx.combine(params['backward_policy_trainable'], jax_policies['backward_static'])
            else:
                model_b = jax_policies['backward'].model
            
            logZ = params.get('logZ', jnp.array(0.0))
            if logZ is not None and logZ.ndim > 0:
                logZ = jnp.sum(logZ)
                                
            logits_f = jax.vmap(model_f)(batch_arrays['parents_policy'])
            logits_f_masked = jnp.where(batch_arrays['masks_forward'], -jnp.inf, logits_f)
            logprobs_f_all = jax.nn.log_softmax(logits_f_masked, axis=1)
            logprobs_f = logprobs_f_all[jnp.arange(len(batch_arrays['actions'])), batch_arrays['actions']]

            logits_b = jax.vmap(model_b)(batch_arrays['states_policy'])
            logits_b_masked = jnp.where(batch_arrays['masks_backward'], -jnp.inf, logits_b)
            logprobs_b_all = jax.nn.log_softmax(logits_b_masked, axis=1)
            logprobs_b = logprobs_b_all[jnp.arange(len(batch_arrays['actions'])), batch_arrays['actions']]
            
            traj_indices = batch_arrays['trajectory_indices']
            
            def compute_traj_logprob_ratio(traj_idx):
                mask = (traj_indices == traj_idx).astype(jnp.float32)
                #TODO: LET'S MINE!
                log_pF = jnp.sum(logprobs_f * mask)
                log_pB = jnp.sum(logprobs_b * mask)
                return log_pF - log_pB
            
            logprob_ratios = jax.vmap(compute_traj_logprob_ratio)(jnp.arange(n_trajs))
    
            log_rewards = batch_arrays['logrewards']
            
            losses = (logZ + logprob_ratios - log_rewards) ** 2
            


            
            return jnp.mean(losses)
        
        return jnp.mean((batch_arrays['logprobs'] - batch_arrays['logprobs_rev']) ** 2)
    
    @partial(jit, static_argnames=['optimizer','loss_type', 'n_trajs'])
    def jax_grad_step(params, opt_state, batch_arrays, optimizer, loss_type=loss_type, n_trajs=None):
        """
        JIT-compiled gradient step.
        This is the ONLY function that needs to be pure JAX.
        """
        
        loss_value, grads = value_and_grad(jax_loss_wrapper)(
            params, batch_arrays, loss_type=loss_type, n_trajs=n_trajs
        )
                
            
        updates, new_opt_state = optimizer.update(grads, opt_state, params)
        new_params = optax.apply_updates(params, updates)
        
        return new_params, new_opt_state, loss_value, grads
    
    total_iterations = agent.n_train_steps - agent.it + 1
    pbar = tqdm(
        initial=agent.it - 1,
        total=total_iterations,
        disable=agent.logger.progressbar.get("skip", False),
    )
    
    calls = 0  # scaffolding
    for iteration in range(agent.it, agent.n_train_steps + 1):
        
        jax.debug.print("=== TRAINING ITERATION {} ===", iteration)
        
        batch = Batch(
            env=agent.env,
            proxy=agent.proxy,
            device=agent.device,
            float_type=agent.float,
        )
        
        # Sample batch (PyTorch)
        for _ in range(agent.sttr):
            sub_batch, _ = agent.sample_batch(
                n_forward=agent.batch_size.forward,
                n_train=agent.batch_size.backward_dataset,
                n_replay=agent.batch_size.backward_replay,
                collect_forwards_masks=True,
                collect_backwards_masks=agent.collect_backwards_masks,
            )
            batch.merge(sub_batch)
        
        batch_arrays = convert_batch_to_jax_arrays(batch)

        
        n_trajs = batch_arrays.get('n_trajs') 
        
        # Perform multiple gradient steps (train-to-sample ratio)
        for _ in range(agent.ttsr):
            jax_params, opt_state, loss_value, grads = jax_grad_step(
                jax_params, opt_state, batch_arrays, optimizer, loss_type=loss_type, n_trajs=n_trajs
            )
            
        apply_params_to_pytorch(jax_params, agent, jax_policies)
        calls += 1  # scaffolding
    return calls  # scaffolding: logging, buffer and evaluation cut


calls = train(_Agent(), config)  # scaffolding
_report({"jit(jax_grad_step)", "jit(jax_loss_wrapper)"}, calls)  # scaffolding
