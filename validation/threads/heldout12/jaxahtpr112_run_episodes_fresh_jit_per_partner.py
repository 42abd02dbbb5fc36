# source: https://github.com/LARG/jax-aht/pull/112
# expect: jit-in-loop-or-body at line 210
# runtime: COMPILES 3 CALLS 3
# why: run_episodes builds a fresh jax.jit(jax.vmap(lambda ...)) on every call, closing over the partner's params, so the heldout evaluation loop compiles one new executable per partner even though all partners share the same policy and shapes.

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
import time
from functools import partial

import jax
import jax.numpy as jnp


# --- scaffolding: a tiny two-agent env and a linear policy stand in for the LBF env + LogWrapper and the
# heldout/ego policies (envs/ and agents/ of jax-aht are not installed) ---
class _Space:  # scaffolding
    n = 3


class TinyEnv:  # scaffolding
    agents = ["agent_0", "agent_1"]
    num_agents = 2

    def action_space(self, agent):
        return _Space()

    def reset(self, rng):
        s = jax.random.normal(rng, (4,))
        return {a: s for a in self.agents}, {"s": s, "t": jnp.zeros((), jnp.int32), "ret": jnp.zeros(())}

    def get_avail_actions(self, state):
        return {a: jnp.ones(3) for a in self.agents}

    def step(self, rng, state, act):
        s = state["s"] * 0.9 + 0.1 * (act["agent_0"] - act["agent_1"])
        t = state["t"] + 1
        r = -jnp.sum(s ** 2)
        ret = state["ret"] + r
        done = t >= 5
        obs = {a: s for a in self.agents}
        reward = {a: r for a in self.agents}
        dones = {a: done for a in self.agents + ["__all__"]}
        info = {"returned_episode_returns": ret}
        return obs, {"s": s, "t": t, "ret": ret}, reward, dones, info


class LinearPolicy:  # scaffolding
    def init_hstate(self, n, aux_info=None):
        return None

    def get_action(self, params, obs, done, avail_actions, hstate, rng, aux_obs=None, env_state=None, test_mode=False):
        logits = obs.reshape(-1, 4) @ params["w"]
        return jnp.argmax(logits, axis=-1).reshape(1, 1), hstate


# --- common/run_episodes.py (as in the repository before the PR) ---
def run_single_episode(rng, env, agent_0_param, agent_0_policy,
                       agent_1_param, agent_1_policy,
                       max_episode_steps, agent_0_test_mode=False, agent_1_test_mode=False):
    # Reset the env.
    rng, reset_rng = jax.random.split(rng)
    init_obs, init_env_state = env.reset(reset_rng)
    init_done = {k: jnp.zeros((1), dtype=bool) for k in env.agents + ["__all__"]}
    init_act_onehot = {k: jnp.zeros((env.action_space(env.agents[i]).n)) for i, k in enumerate(env.agents)}
    init_reward = {k: jnp.zeros((1)) for i, k in enumerate(env.agents)}
    init_joint_act_onehot = jnp.concatenate((init_act_onehot["agent_0"].reshape(1, 1, -1),
                                             init_act_onehot["agent_1"].reshape(1, 1, -1)), axis=-1)

    # Initialize hidden states. Agent id is passed as part of the hstate initialization to support heuristic agents.
    init_hstate_0 = agent_0_policy.init_hstate(1, aux_info={"agent_id": 0})
    init_hstate_1 = agent_1_policy.init_hstate(1, aux_info={"agent_id": 1})

    # Get available actions for agent 0 from environment state
    avail_actions = env.get_avail_actions(init_env_state)
    avail_actions = jax.lax.stop_gradient(avail_actions)
    avail_actions_0 = avail_actions["agent_0"].astype(jnp.float32)
    avail_actions_1 = avail_actions["agent_1"].astype(jnp.float32)

    # Do one step to get a dummy info structure
    rng, act0_rng, act1_rng, step_rng = jax.random.split(rng, 4)

    # Get ego action
    act_0, hstate_0 = agent_0_policy.get_action(
        params=agent_0_param,
        obs=init_obs["agent_0"].reshape(1, 1, -1),
        done=init_done["agent_0"].reshape(1, 1),
        avail_actions=avail_actions_0,
        hstate=init_hstate_0,
        rng=act0_rng,
        aux_obs=(init_act_onehot["agent_0"].reshape(1, 1, -1), init_joint_act_onehot, init_reward["agent_0"].reshape(1, 1, -1)),
        env_state=init_env_state,
        test_mode=agent_0_test_mode
    )
    act_0 = act_0.squeeze()

    # Get partner action using the underlying policy class's get_action method directly
    act_1, hstate_1 = agent_1_policy.get_action(
        params=agent_1_param,
        obs=init_obs["agent_1"].reshape(1, 1, -1),
        done=init_done["agent_1"].reshape(1, 1),
        avail_actions=avail_actions_1,
        hstate=init_hstate_1,  # shape of entry 0 is (1, 1, 8)
        rng=act1_rng,
        aux_obs=None,
        env_state=init_env_state,
        test_mode=agent_1_test_mode
    )
    act_1 = act_1.squeeze()

    both_actions = [act_0, act_1]
    env_act = {k: both_actions[i] for i, k in enumerate(env.agents)}
    env_act_onehot = {k: jax.nn.one_hot(both_actions[i], env.action_space(env.agents[i]).n) for i, k in enumerate(env.agents)}
    obs, env_state, reward, done, dummy_info = env.step(step_rng, init_env_state, env_act)

    # We'll use a scan to iterate steps until the episode is done.
    ep_ts = 1
    init_carry = (ep_ts, env_state, obs, rng, done, reward, env_act_onehot, hstate_0, hstate_1, dummy_info)
    def scan_step(carry, _):
        def take_step(carry_step):
            ep_ts, env_state, obs, rng, done, reward, act_onehot, hstate_0, hstate_1, last_info = carry_step
            # Get available actions for agent 0 from environment state
            avail_actions = env.get_avail_actions(env_state)
            avail_actions = jax.lax.stop_gradient(avail_actions)
            avail_actions_0 = avail_actions["agent_0"].astype(jnp.float32)
            avail_actions_1 = avail_actions["agent_1"].astype(jnp.float32)

            joint_act_onehot = jnp.concatenate((act_onehot["agent_0"].reshape(1, 1, -1),
                                                act_onehot["agent_1"].reshape(1, 1, -1)), axis=-1)

            # Get ego action
            rng, act0_rng, act1_rng, step_rng = jax.random.split(rng, 4)
            act_0, hstate_0_next = agent_0_policy.get_action(
                params=agent_0_param,
                obs=obs["agent_0"].reshape(1, 1, -1),
                done=done["agent_0"].reshape(1, 1),
                avail_actions=avail_actions_0,
                hstate=hstate_0,
                rng=act0_rng,
                aux_obs=(act_onehot["agent_0"].reshape(1, 1, -1), joint_act_onehot, reward["agent_0"].reshape(1, 1, -1)),
                env_state=env_state,
                test_mode=agent_0_test_mode
            )
            act_0 = act_0.squeeze()

            # Get partner action with proper hidden state tracking
            act_1, hstate_1_next = agent_1_policy.get_action(
                params=agent_1_param,
                obs=obs["agent_1"].reshape(1, 1, -1),
                done=done["agent_1"].reshape(1, 1),
                avail_actions=avail_actions_1,
                hstate=hstate_1,
                rng=act1_rng,
                env_state=env_state,
                test_mode=agent_1_test_mode
            )
            act_1 = act_1.squeeze()

            both_actions = [act_0, act_1]
            env_act = {k: both_actions[i] for i, k in enumerate(env.agents)}
            env_act_onehot = {k: jax.nn.one_hot(both_actions[i], env.action_space(env.agents[i]).n) for i, k in enumerate(env.agents)}
            obs_next, env_state_next, reward, done_next, info_next = env.step(step_rng, env_state, env_act)

            return (ep_ts + 1, env_state_next, obs_next, rng, done_next, reward, env_act_onehot, hstate_0_next, hstate_1_next, info_next)

        ep_ts, env_state, obs, rng, done, reward, act_onehot, hstate_0, hstate_1, last_info = carry
        new_carry = jax.lax.cond(
            done["__all__"],
            lambda curr_carry: curr_carry, # True fn
            take_step, # False fn
            operand=carry
        )
        return new_carry, None

    final_carry, _ = jax.lax.scan(
        scan_step, init_carry, None, length=max_episode_steps)
    # Return the final info (which includes the episode return via LogWrapper).
    return final_carry[-1]

def run_episodes(rng, env, agent_0_param, agent_0_policy,
                 agent_1_param, agent_1_policy,
                 max_episode_steps, num_eps, agent_0_test_mode=False, agent_1_test_mode=False):
    '''Given a single ego agent and a single partner agent, run num_eps episodes in parallel using vmap.'''
    # Create episode-specific RNGs
    rngs = jax.random.split(rng, num_eps + 1)
    ep_rngs = rngs[1:]

    # Vectorize run_single_episode over the first argument (rng)
    vmap_run_single_episode = jax.jit(jax.vmap(
        lambda ep_rng: run_single_episode(
            ep_rng, env, agent_0_param, agent_0_policy,
            agent_1_param, agent_1_policy, max_episode_steps,
            agent_0_test_mode, agent_1_test_mode
        )
    ))
    # Run episodes in parallel
    all_outs = vmap_run_single_episode(ep_rngs)
    return all_outs  # each leaf has shape (num_eps, ...)


# --- evaluation/heldout_evaluator.py: eval_egos_vs_heldouts, its partner loop (the ego vmap is dropped:
# one ego agent; scaffolding) ---
env = TinyEnv()  # scaffolding
config = {"global_heldout_settings": {"MAX_EPISODE_STEPS": 6}}  # scaffolding
num_episodes = 4  # scaffolding
ego_policy = LinearPolicy()  # scaffolding
ego_params = {"w": jnp.ones((4, 3))}  # scaffolding
shared_policy = LinearPolicy()  # scaffolding
heldout_agent_list = [(shared_policy, {"w": jnp.full((4, 3), float(i))}, False, None) for i in range(3)]  # scaffolding: three partners sharing one policy
ego_test_mode = False  # scaffolding
calls = 0  # scaffolding

def _eval_ego_vs_one_partner(single_ego_policy, single_ego_params, rng_for_ego,
                                 heldout_policy, heldout_params, heldout_test_mode):
    return run_episodes(rng_for_ego, env,
                        agent_0_policy=single_ego_policy, agent_0_param=single_ego_params,
                        agent_1_policy=heldout_policy, agent_1_param=heldout_params,
                        max_episode_steps=config["global_heldout_settings"]["MAX_EPISODE_STEPS"],
                        num_eps=num_episodes,
                        agent_0_test_mode=ego_test_mode,
                        agent_1_test_mode=heldout_test_mode)

num_partner_total = len(heldout_agent_list)
all_metrics_for_partners = []
rng = jax.random.PRNGKey(0)  # scaffolding
rng, sub_rng = jax.random.split(rng)
partner_rngs = jax.random.split(sub_rng, num_partner_total)
start_time = time.time()

for partner_idx in range(num_partner_total):
    heldout_policy, heldout_params, heldout_test_mode, heldout_performance_bounds = heldout_agent_list[partner_idx]
    results_for_this_partner = _eval_ego_vs_one_partner(ego_policy, ego_params, partner_rngs[partner_idx],
                                                        heldout_policy, heldout_params, heldout_test_mode)  # scaffolding: direct call instead of vmap over egos
    calls += 1  # scaffolding
    all_metrics_for_partners.append(results_for_this_partner)

print(f"Time taken for evaluation loop: {time.time() - start_time:.2f} seconds")  # scaffolding
print(jax.tree.map(lambda x: x.shape, all_metrics_for_partners[0]))  # scaffolding
_report({"jit(<lambda>)"}, calls)  # scaffolding
