# source: https://github.com/ThomasMousseau/gflownet/commit/66b892a5bb9758e5235acbbce799939070fd4684
# expect: none
# runtime: COMPILES 2 CALLS 10
# why: JAXBatchConverter pads every array into fixed-size buffers and drops the unpadded entries, so the batch shapes no longer change; the second compile is a one-off (first call with uncommitted params next to DLPack-committed batch arrays), not growth.

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
# gflownet/trainers/jax_minimal.py of ThomasMousseau/gflownet at 66b892a5 (batch conversion and the JAX training loop; logging, buffer and PyTorch sync cut)
import time
import jax
import jax.numpy as jnp
import numpy as np
from jax import jit, value_and_grad, grad
import equinox as eqx
import torch.nn as nn
import torch
import optax
from functools import partial
from tqdm import tqdm
from torch.utils.dlpack import to_dlpack as torch_to_dlpack
from torch.utils.dlpack import from_dlpack as torch_from_dlpack
from jax.dlpack import from_dlpack as jax_from_dlpack



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


def t2j(tensor):
    """Convert PyTorch tensor to JAX array via DLPack (zero-copy if possible)."""
    if isinstance(tensor, torch.Tensor):
        return jax_from_dlpack(tensor.detach().contiguous())
    return jnp.array(tensor)

def j2t(array):
    """Convert JAX array to PyTorch tensor via DLPack (zero-copy if possible)."""
    return torch_from_dlpack(array)

class JAXBatchConverter:
    def __init__(self, max_states, max_trajs, device):
        self.max_states = max_states
        self.max_trajs = max_trajs
        self.device = device
        self.buffers = {}

    def pad_and_convert(self, tensor, size, fill_value=0, name=""):
        curr_size = tensor.shape[0]
        if curr_size == size:
            return t2j(tensor)
        
        if curr_size > size:
            return t2j(tensor[:size])

        key = name
        if key not in self.buffers:
            shape = list(tensor.shape)
            shape[0] = size
            self.buffers[key] = torch.full(shape, fill_value, dtype=tensor.dtype, device=self.device)
        
        buf = self.buffers[key]
        
        # Reallocate if shape mismatch (e.g. embedding dim changed? unlikely)
        if buf.shape[1:] != tensor.shape[1:] or buf.dtype != tensor.dtype:
             shape = list(tensor.shape)
             shape[0] = size
             buf = torch.full(shape, fill_value, dtype=tensor.dtype, device=self.device)
             self.buffers[key] = buf
        else:
             buf.fill_(fill_value)

        buf[:curr_size] = tensor
        return t2j(buf)

    def __call__(self, pytorch_batch: Batch):
        """
        Extract JAX-compatible arrays from PyTorch Batch using pre-allocated buffers.
        """
        
        traj_indices = pytorch_batch.get_trajectory_indices(consecutive=True)
        actual_n_trajs = int(traj_indices.max().item()) + 1
        actual_n_states = len(pytorch_batch)
        
        traj_indices = self.pad_and_convert(traj_indices, self.max_states, fill_value=self.max_trajs, name="traj_indices")
        
        # Get states for policy input
        states_policy = pytorch_batch.get_states(policy=True)
        if isinstance(states_policy, list):
            if len(states_policy) > 0 and isinstance(states_policy[0], torch.Tensor):
                states_policy = torch.stack(states_policy)
            else:
                states_policy = torch.tensor(np.array(states_policy), device=pytorch_batch.device)
                
        states = self.pad_and_convert(states_policy, self.max_states, name="states")
        
        actions = []
        for i in range(len(pytorch_batch)):
            action = pytorch_batch.actions[i]
            traj_idx = pytorch_batch.traj_indices[i]
            env = pytorch_batch.envs[traj_idx]
            
            if isinstance(action, tuple):
                action_idx = env.action2index(action)
            else:
                action_idx = action
            
            actions.append(action_idx)
        
        actions = torch.tensor(actions, dtype=torch.int32, device=pytorch_batch.device)
        actions = self.pad_and_convert(actions, self.max_states, name="actions")
        
        if pytorch_batch.proxy is None:
            print("WARNING: Batch has no proxy, using zero rewards")
            terminating_rewards = torch.zeros(pytorch_batch.get_n_trajectories(), dtype=torch.float32, device=pytorch_batch.device)
        else:
            terminating_rewards = pytorch_batch.get_terminating_rewards(sort_by="trajectory")
        
        terminating_rewards = self.pad_and_convert(terminating_rewards, self.max_trajs, name="terminating_rewards")
        
        rewards = pytorch_batch.get_rewards()
        rewards = self.pad_and_convert(rewards, self.max_states, name="rewards")
        
        logrewards = pytorch_batch.get_terminating_rewards(log=True, sort_by="trajectory")
        logrewards = self.pad_and_convert(logrewards, self.max_trajs, name="logrewards")
        
        logprobs_fwd, _ = pytorch_batch.get_logprobs(backward=False)
        logprobs_bwd, _ = pytorch_batch.get_logprobs(backward=True)
        
        logprobs = self.pad_and_convert(logprobs_fwd, self.max_states, name="logprobs")
        logprobs_rev = self.pad_and_convert(logprobs_bwd, self.max_states, name="logprobs_rev")
        
        parents_policy = pytorch_batch.get_parents(policy=True)
        if isinstance(parents_policy, list):
            if len(parents_policy) > 0 and isinstance(parents_policy[0], torch.Tensor):
                parents_policy = torch.stack(parents_policy)
            else:
                parents_policy = torch.tensor(np.array(parents_policy), device=pytorch_batch.device)
        
        parents_policy = self.pad_and_convert(parents_policy, self.max_states, name="parents_policy")

        masks_forward_pt = pytorch_batch.get_masks_forward(of_parents=True)
        masks_backward_pt = pytorch_batch.get_masks_backward()
        
        masks_forward = self.pad_and_convert(masks_forward_pt, self.max_states, fill_value=1, name="masks_forward")
        masks_backward = self.pad_and_convert(masks_backward_pt, self.max_states, fill_value=1, name="masks_backward")
        
        return {
            'states': states,
            'parents_policy': parents_policy,
            'actions': actions,
            'rewards': rewards,
            'logprobs': logprobs,
            'logprobs_rev': logprobs_rev,
            'trajectory_indices': traj_indices,
            'masks_forward': masks_forward,
            'masks_backward': masks_backward,
            
            'terminating_rewards': terminating_rewards,
            'logrewards': logrewards,
            
            'actual_n_states': jnp.array(actual_n_states, dtype=jnp.int32),
            'actual_n_trajs': jnp.array(actual_n_trajs, dtype=jnp.int32),
        }


def train(agent, config):
    """
    Phase 1 JAX trainer: Uses PyTorch agent for sampling, JAX for backprop.
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
    opt_state = optimizer.init(jax_params)
    loss_type = config.loss.get('_target_', 'trajectorybalance').split('.')[-1].lower()
    
    # has_trainable = (
    #     'forward_policy_trainable' in jax_params and jax_params['forward_policy_trainable'] is not None or 
    #     'backward_policy_trainable' in jax_params and jax_params['backward_policy_trainable'] is not None or 
    #     jax_params.get('logZ') is not None
    # )
    
    # if not has_trainable:
    #     print("WARNING: No trainable parameters found!")
    #     print("  - Forward policy is not a neural network model")
    #     print("  - Backward policy is not a neural network model")
    #     print("  - LogZ is None")
    #     print("  Training will proceed but parameters won't be updated.")
    
    #TODO: find the right sizes for states and trajectories
    n_trajs_per_sample = agent.batch_size.forward + agent.batch_size.backward_dataset + agent.batch_size.backward_replay
    MAX_TRAJS = int(n_trajs_per_sample * agent.sttr) 
    
    # Heuristic for max states in a batch
    max_traj_len = 0
    if hasattr(config.env, 'max_step'):
        max_traj_len = config.env.max_step
    elif hasattr(config.env, 'length') and hasattr(config.env, 'n_dim'):
        max_traj_len = config.env.length * config.env.n_dim
    else:
        max_traj_len = 100 # Fallback
        
    MAX_STATES = int(MAX_TRAJS * max_traj_len * 1.2) # 20% buffer
    
    print(f"JAX Compilation Config: MAX_TRAJS={MAX_TRAJS}, MAX_STATES={MAX_STATES}")

    @partial(jit, static_argnames=['loss_type', 'debug'])
    def jax_loss_wrapper(params, batch_arrays, loss_type=loss_type, debug=False):
        if loss_type == 'trajectorybalance': #TODO: implement different losses
            if 'forward_policy_trainable' in params and params['forward_policy_trainable'] is not None:
                model_f = eqx.combine(params['forward_policy_trainable'], jax_policies['forward_static'])
            else:
                model_f = jax_policies['forward'].model
            
            if 'backward_policy_trainable' in params and params['backward_policy_trainable'] is not None:
                model_b = eqx.combine(params['backward_policy_trainable'], jax_policies['backward_static'])
            else:
                model_b = jax_policies['backward'].model
            
            
            logZ = params['logZ']
            if logZ.ndim > 0: logZ = jnp.sum(logZ)
                                
            logits_f = jax.vmap(model_f)(batch_arrays['parents_policy'])
            logits_f_masked = jnp.where(batch_arrays['masks_forward'], -jnp.inf, logits_f)
            logprobs_f_all = jax.nn.log_softmax(logits_f_masked, axis=1)
            logprobs_f = logprobs_f_all[jnp.arange(MAX_STATES), batch_arrays['actions']]

            # Zero out logprobs for padded states so they don't affect sum
            # (We use state_mask where 1=valid, 0=padded)
            state_mask = jnp.arange(MAX_STATES) < batch_arrays['actual_n_states']
            logprobs_f = logprobs_f * state_mask

            logits_b = jax.vmap(model_b)(batch_arrays['states']) #! states_policy
            logits_b_masked = jnp.where(batch_arrays['masks_backward'], -jnp.inf, logits_b)
            logprobs_b_all = jax.nn.log_softmax(logits_b_masked, axis=1)
            logprobs_b = logprobs_b_all[jnp.arange(MAX_STATES), batch_arrays['actions']]
            logprobs_b = logprobs_b * state_mask
            
            traj_indices = batch_arrays['trajectory_indices']
            
            segment_ids = traj_indices + 1  # Shift so -1 -> 0, 0 -> 1, etc.
            num_segments = MAX_TRAJS + 1    # +1 for the "garbage" bin at index 0
            
            sum_logprobs_f = jax.ops.segment_sum(logprobs_f, segment_ids, num_segments=num_segments)
            sum_logprobs_b = jax.ops.segment_sum(logprobs_b, segment_ids, num_segments=num_segments)
            
            sum_logprobs_f = sum_logprobs_f[1:]
            sum_logprobs_b = sum_logprobs_b[1:]
            
            logprob_ratios = sum_logprobs_f - sum_logprobs_b
            
    
            log_rewards = batch_arrays['logrewards']
            
            losses = (logZ + logprob_ratios - log_rewards) ** 2
            


            
            #! Average over actual trajectories and avoid division by zero
            traj_mask = jnp.arange(MAX_TRAJS) < batch_arrays['actual_n_trajs']
            loss_sum = jnp.sum(losses * traj_mask)
            n_valid = jnp.sum(traj_mask)
            return loss_sum / (n_valid + 1e-8)
            
        return jnp.array(0.0)
    
    @partial(jit, static_argnames=['optimizer','loss_type'])
    def jax_grad_step(params, opt_state, batch_arrays, optimizer, loss_type=loss_type):
        """
        JIT-compiled gradient step.
        This is the ONLY function that needs to be pure JAX.
        """
        
        loss_value, grads = value_and_grad(jax_loss_wrapper)(
            params, batch_arrays, loss_type=loss_type
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
    
    
    # Initialize batch converter
    batch_converter = JAXBatchConverter(MAX_STATES, MAX_TRAJS, agent.device)

    calls = 0  # scaffolding
    for iteration in range(agent.it, agent.n_train_steps + 1):
        
        t0 = time.time()
        
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
        
        t1 = time.time()
        
        batch_arrays = batch_converter(batch)

        t2 = time.time()

        # Perform multiple gradient steps (train-to-sample ratio)
        for _ in range(agent.ttsr):
            jax_params, opt_state, loss_value, grads = jax_grad_step(
                jax_params, opt_state, batch_arrays, optimizer, loss_type=loss_type
            )
            
        t3 = time.time()
        
        # Sync parameters back to PyTorch (every 10 iterations to save time)
        if iteration % 10 == 0:
            apply_params_to_pytorch(jax_params, agent, jax_policies)
        calls += 1  # scaffolding
    return calls  # scaffolding: logging, buffer and evaluation cut


calls = train(_Agent(), config)  # scaffolding
_report({"jit(jax_grad_step)", "jit(jax_loss_wrapper)"}, calls)  # scaffolding
