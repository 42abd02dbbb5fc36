# source: https://github.com/N0r9st/a2c-jax/commit/03fba27faf2adbbfe0f9938e9a347241233ae6a2
# expect: none
# runtime: COMPILES 2 CALLS 4
# why: after the commit the worker jits add_args['policy_fn'] once (determenistic static) and main sends only params and determenistic, bound with functools.partial per message, so params are traced and _policy_fn compiles once per input shape (2) for the 4 messages.
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




import functools
import os
import pickle  # scaffolding: the Pipe pickles each message
from collections import namedtuple  # scaffolding
import jax
import jax.numpy as jnp
import numpy as np
import flax.linen as nn  # scaffolding
# import wandb  # scaffolding: not installed, logging cut
# from jax_a2c.env_utils import make_vec_env, DummySubprocVecEnv, run_workers  # scaffolding: stand-ins below
# from stable_baselines3.common.vec_env.vec_normalize import VecNormalize  # scaffolding: not installed, stand-in below


# ---- jax_a2c/distributions.py ----
def sample_action_from_normal(prngkey, normal_means, log_normal_stds):
    """ Normal dist parameters -> samples and logprobs for Normal
    """
    normal_stds = jnp.exp(log_normal_stds)
    normal_samples = normal_means + normal_stds * jax.random.normal(prngkey, shape=normal_means.shape)
    return normal_samples

sample_action = sample_action_from_normal  # scaffolding: run_async_a2c.py imports it under this name


# ---- jax_a2c/km_mc_traj.py (km_mc_rollouts; its `from jax_a2c.utils import process_rewards` is unused here and cut) ----
@functools.partial(jax.jit, static_argnums=(1,))
def repeat(array, K):
    repeated = jnp.concatenate([array for _ in range(K)], axis=0) 
    return repeated# .reshape((repeated.shape[1]*repeated.shape[0],) + repeated.shape[2:])

def km_mc_rollouts(prngkey, k_envs, experience, policy_fn, gamma, K, M, max_steps=1000, firstrandom=False):
    observations = experience.observations # (num_steps, num_envs, obs_shape)
    dones = experience.dones
    states = experience.states

    num_envs = k_envs.num_envs

    iterations = 0
    flat_observations = repeat(observations, K)
    # (in_states, obs_shape) -> (K * in_states, obs_shape)
    flat_dones = repeat(dones, K)

    if firstrandom:
        flat_actions = jax.random.uniform(prngkey, minval=k_envs.action_space.low, maxval=k_envs.action_space.high, 
        shape=flat_observations.shape[:-1] + k_envs.action_space.shape)
    else:
        _, flat_actions = policy_fn(prngkey, flat_observations)

    m_flat_observations = jnp.concatenate([flat_observations for _ in range(M)], axis=0)
    # (K * in_states, obs_shape) -> (M * K * in_states, obs_shape)
    m_flat_actions = jnp.concatenate([flat_actions for _ in range(M)], axis=0)
    m_flat_dones = jnp.concatenate([flat_dones for _ in range(M)], axis=0)
    m_flat_states = (states * K) * M

    all_rewards_array = np.zeros((max_steps, m_flat_observations.shape[0]))
    all_ds_array = np.zeros((max_steps + 1,) + m_flat_dones.shape)
    all_obs_array = np.zeros((max_steps,) + m_flat_observations.shape)
    all_next_obs_array = np.zeros((max_steps,) + m_flat_observations.shape)
    all_act_array = np.zeros((max_steps,) + m_flat_actions.shape)
    all_boot_list = []

    all_ds_array[0] = m_flat_dones

    for slc in range(0, len(m_flat_observations), num_envs):
        next_ob = m_flat_observations[slc: slc + num_envs]
        acts = m_flat_actions[slc: slc + num_envs]
        state = m_flat_states[slc: slc + num_envs]
        k_envs.set_state(state)

        cumdones = jnp.zeros(shape=(next_ob.shape[0],))

        for l in range(max_steps):
            ob = next_ob
            _, prngkey = jax.random.split(prngkey)
            if l != 0:                
                _, acts = policy_fn(prngkey, ob) 
            
            acts = np.array(acts)
            for _ in range(1 + (os.environ.get('DOUBLE_STEP') is not None)):
                next_ob, rews, d, info = k_envs.step(acts)
            all_rewards_array[l, slc: slc + num_envs] = rews
            all_ds_array[l + 1, slc: slc + num_envs] = d
            all_obs_array[l, slc: slc + num_envs] = ob
            all_next_obs_array[l, slc: slc + num_envs] = next_ob
            all_act_array[l, slc: slc + num_envs] = acts
            iterations += 1
            cumdones += d
            if cumdones.all():
                break
        
        bootstrapped_values, _ = policy_fn(prngkey, next_ob) # ???
        all_boot_list.append(bootstrapped_values)
    
    rollout_data = dict(
        observations=all_obs_array,
        next_observations=all_next_obs_array,
        actions=all_act_array,
        dones=all_ds_array,
        rewards=all_rewards_array,
        bootstrapped=jnp.concatenate(all_boot_list)[..., 0], # (1, in_states)
        )
    return rollout_data


# ---- scaffolding: stand-ins for the vectorised envs and the policy network ----
class DummySubprocVecEnv:  # scaffolding: jax_a2c.env_utils.DummySubprocVecEnv without the subprocess remotes
    def __init__(self, remotes=None, num_envs=4, obs_dim=3, act_dim=1):  # scaffolding
        self.num_envs, self.obs_dim = num_envs, obs_dim  # scaffolding
        self._rng = np.random.RandomState(0)  # scaffolding

    def set_state(self, state):  # scaffolding
        pass  # scaffolding

    def step(self, acts):  # scaffolding
        n = acts.shape[0]  # scaffolding
        return self._rng.randn(n, self.obs_dim).astype(np.float32), self._rng.randn(n), np.zeros(n), {}  # scaffolding


def VecNormalize(venv, training=False):  # scaffolding: stable_baselines3's wrapper, normalisation not needed here
    return venv  # scaffolding


class _Policy(nn.Module):  # scaffolding: stands in for DiagGaussianPolicy (values, (means, log_stds))
    @nn.compact
    def __call__(self, x):  # scaffolding
        h = nn.tanh(nn.Dense(16)(x))  # scaffolding
        return nn.Dense(1)(h), (nn.Dense(1)(h), self.param('log_std', nn.initializers.zeros, (1,)) * jnp.ones((x.shape[0], 1)))  # scaffolding


class _FakeRemote:  # scaffolding: the worker's end of the multiprocessing Pipe, fed with the messages main() sends
    def __init__(self, messages):  # scaffolding
        self.messages = list(messages)  # scaffolding
        self.sent = []  # scaffolding

    def recv(self):  # scaffolding
        if not self.messages:  # scaffolding
            raise EOFError  # scaffolding: main closed the pipe
        return pickle.loads(pickle.dumps(self.messages.pop(0)))  # scaffolding

    def send(self, out):  # scaffolding
        self.sent.append(out)  # scaffolding

    def close(self):  # scaffolding
        pass  # scaffolding


Experience = namedtuple('Experience', ['observations', 'actions', 'rewards', 'values', 'dones', 'states', 'next_observations'])  # scaffolding: jax_a2c.utils.Experience


# ---- run_async_a2c.py ----
def _policy_fn(prngkey, observation, params, apply_fn, determenistic=False):
    values, (means, log_stds) = apply_fn({'params': params}, observation)
    sampled_actions  = means if determenistic else sample_action(prngkey, means, log_stds)
    return values, sampled_actions

def _worker(remote, k_remotes, parent_remote, spaces, device, add_args) -> None:
    print('D:', device)
    os.environ['CUDA_VISIBLE_DEVICES'] = str(device)
    parent_remote.close()
    k_envs = DummySubprocVecEnv(remotes=k_remotes)
    
    k_envs.observation_space, k_envs.action_space = spaces
    k_envs = VecNormalize(k_envs, training=False)
    km_mc_rollouts_ = functools.partial(km_mc_rollouts, k_envs=k_envs)

    _policy_fn = jax.jit(add_args['policy_fn'], static_argnames=('determenistic',))
    while True:
        try:
            for _ in range(1 + (os.environ.get('DOUBLE_SEND') is not None)):
                args = remote.recv()
            k_envs.obs_rms = args.pop('train_obs_rms')
            k_envs.ret_rms = args.pop('train_ret_rms')
            # args['policy_fn'] = jax.jit(args['policy_fn'])
            policy_fn = functools.partial(_policy_fn, **(args.pop('policy_fn')))
            out = km_mc_rollouts_(policy_fn=policy_fn, **args)
            for _ in range(1 + (os.environ.get('DOUBLE_SEND') is not None)):
                remote.send(out)
        except EOFError:
            break


# ---- scaffolding: what main() does around the workers, for 4 training iterations ----
policy_model = _Policy()  # scaffolding
params = policy_model.init(jax.random.PRNGKey(0), jnp.zeros((1, 3)))['params']  # scaffolding
from types import SimpleNamespace  # scaffolding
state = SimpleNamespace(apply_fn=policy_model.apply, params={'policy_params': params})  # scaffolding: the TrainState's fields main() uses
args = dict(gamma=0.99, km_determenistic=False, L=3, K=1, M=2)  # scaffolding: CLI args (small rollouts)
train_obs_rms = train_ret_rms = None  # scaffolding: VecNormalize statistics (normalisation stood in)
_apply_policy_fn = functools.partial(_policy_fn, apply_fn=state.apply_fn, determenistic=False)
prngkey = jax.random.PRNGKey(1)  # scaffolding
messages = []  # scaffolding
iterations = 4  # scaffolding
for it in range(iterations):  # scaffolding: main's training loop, one worker
    state.params = {'policy_params': jax.tree_util.tree_map(lambda p: p + 0.01, state.params['policy_params'])}  # scaffolding: the A2C update changes the policy params
    sampled_exp = Experience(observations=np.random.randn(2, 3).astype(np.float32), actions=None, rewards=None, values=None,  # scaffolding
                             dones=np.zeros(2), states=[None, None], next_observations=None)  # scaffolding
    prngkey, _ = jax.random.split(prngkey)  # scaffolding
    to_worker = dict(  # (main()'s message, verbatim apart from indentation)
        prngkey=prngkey,
        experience=sampled_exp,
        gamma=args['gamma'],
        policy_fn=dict(
            params=state.params['policy_params'], 
            determenistic=args['km_determenistic']),
        max_steps=args['L'],
        K=args['K'],
        M=args['M'],
        train_obs_rms=train_obs_rms,
        train_ret_rms=train_ret_rms,
        firstrandom=False,
        )

    messages.append(to_worker)  # scaffolding: remote.send(to_worker)
remote = _FakeRemote(messages)  # scaffolding
try:  # scaffolding
    _worker(remote, None, _FakeRemote([]), (None, None), 0, {'policy_fn': _apply_policy_fn})  # scaffolding: the worker process body, run in-process
    print(f"rollouts returned: {len(remote.sent)}")  # scaffolding
    _report({"jit(_policy_fn)"}, iterations)  # scaffolding: calls = worker iterations (each calls policy_fn several times)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
