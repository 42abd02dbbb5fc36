# source: https://github.com/micdoh/XLRON/commit/4ab35077f94acd03b9880bba59481fdaa91feaf7
# expect: changing-static at line 265
# runtime: COMPILES 3 CALLS 120
# why: step_env takes raw_env as a static argument, and the non-compiled (CPU default) path calls make(FLAGS) again for every seed, so each seed passes a new env object (hashed by identity) and step_env recompiles per seed.

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
# xlron/bounds/reconfigurable_routing_bounds.py of micdoh/XLRON at 4ab3507^ (main() non-compiled path, the CPU default; get_eval_fn cut to its Python-loop branch)
import copy
import sys
from functools import partial
from typing import Callable

import jax
import jax.numpy as jnp
from tqdm import tqdm

# --- scaffolding: a tiny RSA environment, make(FLAGS), request helpers and TimeIt stand in for xlron ---
import types  # scaffolding
import time  # scaffolding
from flax import struct  # scaffolding

FLAGS = types.SimpleNamespace(  # scaffolding: absl flags
    TOTAL_TIMESTEPS=40, load=10.0, num_trials=3, COMPILE_RR_BOUNDS=False, PROFILE=False,  # scaffolding: 3 seeds
    path_heuristic="ksp_ff", deterministic_requests=False, mean_service_holding_time=5.0,  # scaffolding
    min_load=None, max_load=None, step_load=None, VISIBLE_DEVICES="",  # scaffolding
)  # scaffolding


@struct.dataclass  # scaffolding
class EnvParams:  # scaffolding
    num_links: int = struct.field(pytree_node=False)  # scaffolding
    link_resources: int = struct.field(pytree_node=False)  # scaffolding
    deterministic_requests: bool = struct.field(pytree_node=False)  # scaffolding


@struct.dataclass  # scaffolding
class RSAEnvState:  # scaffolding
    link_slot_array: jnp.ndarray  # scaffolding
    link_slot_departure_array: jnp.ndarray  # scaffolding
    list_of_requests: jnp.ndarray  # scaffolding
    total_requests: jnp.ndarray  # scaffolding


@struct.dataclass  # scaffolding
class LogEnvState:  # scaffolding
    env_state: RSAEnvState  # scaffolding


class _RSAEnv:  # scaffolding
    def reset(self, key, params):  # scaffolding
        inner = RSAEnvState(jnp.zeros((params.num_links, params.link_resources)),  # scaffolding
                            jnp.zeros((params.num_links, params.link_resources)),  # scaffolding
                            jnp.zeros((FLAGS.TOTAL_TIMESTEPS, 6)), jnp.array(0))  # scaffolding
        return jnp.zeros(params.num_links * params.link_resources), LogEnvState(inner)  # scaffolding

    def step_env(self, key, state, action, params):  # scaffolding: occupy one slot, block when the link is full
        req = state.list_of_requests[state.total_requests % state.list_of_requests.shape[0]]  # scaffolding
        link = action % params.num_links  # scaffolding
        free = state.link_slot_array[link] == 0  # scaffolding
        slot = jnp.argmax(free)  # scaffolding
        ok = free[slot]  # scaffolding
        lsa = state.link_slot_array.at[link, slot].set(jnp.where(ok, 1.0, state.link_slot_array[link, slot]))  # scaffolding
        lsda = state.link_slot_departure_array.at[link, slot].set(jnp.where(ok, req[4] + req[5], 0.0))  # scaffolding
        new = state.replace(link_slot_array=lsa, link_slot_departure_array=lsda, total_requests=state.total_requests + 1)  # scaffolding
        return lsa.ravel(), new, jnp.where(ok, 1.0, -1.0), False, False, {}  # scaffolding


class _LogWrapper:  # scaffolding
    def __init__(self, env):  # scaffolding
        self._env = env  # scaffolding

    def reset(self, key, params):  # scaffolding
        return self._env.reset(key, params)  # scaffolding


def make(flags):  # scaffolding: topology/k-paths construction cut
    return _LogWrapper(_RSAEnv()), EnvParams(num_links=4, link_resources=8, deterministic_requests=flags.deterministic_requests)  # scaffolding


def generate_request_list(key, total_timesteps, env_state, params):  # scaffolding
    src = jax.random.randint(key, (total_timesteps, 1), 0, 4).astype(jnp.float32)  # scaffolding
    cols = [src, jnp.ones((total_timesteps, 1)), (src + 1) % 4, jnp.ones((total_timesteps, 1)),  # scaffolding
            jnp.full((total_timesteps, 1), 3.0), jnp.arange(total_timesteps, dtype=jnp.float32)[:, None]]  # scaffolding
    return jnp.concatenate(cols, axis=1)  # scaffolding


def generate_request_rsa(key, state, params):  # scaffolding
    return state  # scaffolding


def sort_requests(requests, params):  # scaffolding
    idx = jnp.argsort(-requests[:, 1])  # scaffolding
    return requests[idx], jnp.arange(requests.shape[0])  # scaffolding


def ksp_ff(state, params):  # scaffolding: first link with a free slot
    return jnp.argmax(jnp.any(state.link_slot_array == 0, axis=1))  # scaffolding


ff_ksp = ksp_ff  # scaffolding


class TimeIt:  # scaffolding
    def __init__(self, tag="", frames=None):  # scaffolding
        self.tag = tag  # scaffolding

    def __enter__(self):  # scaffolding
        self.t0 = time.time()  # scaffolding
        return self  # scaffolding

    def __exit__(self, *exc):  # scaffolding
        self.elapsed_secs = time.time() - self.t0  # scaffolding


class _JitProfiler:  # scaffolding
    def call(self, profile, fn, *args, name=None):  # scaffolding
        return fn(*args)  # scaffolding

    def reset(self):  # scaffolding
        pass  # scaffolding


jit_profiler = _JitProfiler()  # scaffolding
# --- end scaffolding ---


def get_eval_fn(config, env, env_params, compile_defrag=False) -> Callable:
    # Use the raw env (unwrap LogWrapper) for step_env which does not auto-reset.
    # Auto-reset causes dtype/shape mismatches when list_of_requests differs
    # between the injected requests and the default reset state.
    raw_env = env._env if hasattr(env, "_env") else env
    profile = bool(config.PROFILE)
    select_action = ksp_ff if config.path_heuristic == "ksp_ff" else ff_ksp

    if compile_defrag:  # scaffolding: the compiled lax.scan main loop is cut
        raise NotImplementedError  # scaffolding
    else:
        # --- Non-compiled path: Python loop over only actual active requests ---

        def run_defragmentation(rng, sorted_requests, sort_index, init_obs, env_state):  # scaffolding: defrag episode cut (always reports blocking)
            return sorted_requests, env_state, jnp.bool_(True)  # scaffolding

        return None, run_defragmentation


@partial(jax.jit, static_argnums=(1, 3, 4))
def step_env(rng, raw_env, env_state, env_params, profile=False):
    """Step through the environment using raw step_env (no auto-reset).

    Uses raw_env.step_env to avoid auto-reset which causes dtype/shape
    mismatches when list_of_requests has been injected.
    """
    rng, action_key, step_key = jax.random.split(rng, 3)
    # SELECT ACTION
    inner_state = env_state.env_state
    select_action = ksp_ff if FLAGS.path_heuristic == "ksp_ff" else ff_ksp
    action = jit_profiler.call(
        profile, select_action, inner_state, env_params, name="main_select_action"
    )
    # STEP ENV (use raw step_env to avoid auto-reset on done)
    obsv, new_inner_state, reward, terminal, truncated, info = jit_profiler.call(
        profile, raw_env.step_env, step_key, inner_state, action, env_params, name="main_step_env"
    )
    env_state = env_state.replace(env_state=new_inner_state)
    return obsv, env_state, reward, terminal, truncated, info


def _build_loads(flags_obj):
    """Build array of loads from flags. Uses min/max/step if set, else single load."""
    import numpy as np
    if flags_obj.min_load is not None and flags_obj.max_load is not None and flags_obj.step_load is not None:
        return np.arange(flags_obj.min_load, flags_obj.max_load + flags_obj.step_load / 2, flags_obj.step_load)
    return np.array([flags_obj.load])



def main(argv):
    calls = 0  # scaffolding
    profile = bool(FLAGS.PROFILE)

    loads = _build_loads(FLAGS)
    # Use max load for max_active sizing (determines defrag array shapes)
    effective_max_load = float(max(loads))
    mean_service_holding_time = float(FLAGS.mean_service_holding_time)

    for load_val in loads:
        load_val = float(load_val)
        print(f"\n{'='*60}")
        print(f"  Load = {load_val:.1f} Erlang")
        print(f"{'='*60}")

        all_blocking_probs = []
        all_block_counts = []
        all_fix_counts = []
        total_compilation_time = 0.0
        total_execution_time = 0.0

        num_seeds = 1 if profile else FLAGS.num_trials
        for seed in range(num_seeds):
            print(f"  Seed {seed + 1}/{num_seeds}: setting up environment...", flush=True)

            # Define environment
            FLAGS.__setattr__("deterministic_requests", False)
            # Set load for request generation (affects arrival_rate in state)
            FLAGS.__setattr__("load", load_val)
            env, env_params = make(FLAGS)

            # Generate requests for parallel envs
            rng = jax.random.PRNGKey(seed)
            setup_key = jax.random.split(rng, 1)[0]
            init_obs, env_state = env.reset(setup_key, env_params)
            request_array = generate_request_list(
                setup_key, FLAGS.TOTAL_TIMESTEPS, env_state, env_params
            )
            # Define env again but this time with deterministic requests
            FLAGS.__setattr__("deterministic_requests", True)
            env, env_params = make(FLAGS)
            raw_env = env._env if hasattr(env, "_env") else env
            # Set the requests arrays for each state
            inner_state = env_state.env_state.replace(list_of_requests=request_array)
            inner_state = generate_request_rsa(setup_key, inner_state, env_params)
            env_state = env_state.replace(env_state=inner_state)
            initial_state = copy.deepcopy(env_state)

            sorted_requests, sort_indices = sort_requests(request_array, env_params)

            # Define the heuristic evaluation function
            env_key = jax.random.split(rng, 1)[0]
            compile_defrag = bool(FLAGS.COMPILE_RR_BOUNDS)
            print(
                f"  Seed {seed + 1}/{num_seeds}: compiling (compile_defrag={compile_defrag})...",
                flush=True,
            )
            # Use effective_max_load for max_active sizing
            FLAGS.__setattr__("load", effective_max_load)
            main_loop_fn, defrag_fn = get_eval_fn(FLAGS, env, env_params, compile_defrag=compile_defrag)
            FLAGS.__setattr__("load", load_val)  # Restore actual load
            if compile_defrag:  # scaffolding: the compiled branch is cut (COMPILE_RR_BOUNDS is False on CPU)
                raise NotImplementedError  # scaffolding
            else:
                run_defrag = defrag_fn
                with TimeIt(tag="STEP ENV COMPILATION") as comp_timer:
                    step_env.lower(env_key, raw_env, env_state, env_params, profile).compile()
                total_compilation_time += comp_timer.elapsed_secs

                jit_profiler.reset()
                import time as _time

                step_time_total = 0.0
                defrag_time_total = 0.0
                defrag_call_count = 0

                with TimeIt(tag="EXECUTION", frames=FLAGS.TOTAL_TIMESTEPS) as exec_timer:
                    blocking_events = []
                    block_count = 0
                    fix_count = 0
                    pbar = tqdm(
                        range(int(FLAGS.TOTAL_TIMESTEPS)),
                        desc=f"  Seed {seed + 1}/{num_seeds}",
                        bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}] blocks={postfix[0]} fixes={postfix[1]}",
                        postfix=[0, 0],
                    )
                    for i in pbar:
                        t0 = _time.time()
                        obsv, env_state, reward, terminal, truncated, info = step_env(
                            env_key, raw_env, env_state, env_params, profile
                        )
                        step_time_total += _time.time() - t0
                        calls += 1  # scaffolding
                        blocking = 1 if reward < 0 else 0
                        if blocking:
                            block_count += 1
                            sort_index = sort_indices[i]
                            t0 = _time.time()
                            sorted_requests, new_env_state, blocking = run_defrag(
                                env_key, sorted_requests, sort_index, init_obs, initial_state
                            )
                            defrag_time_total += _time.time() - t0
                            defrag_call_count += 1
                            if not blocking:
                                new_link_slot_array = new_env_state.env_state.link_slot_array
                                new_link_slot_departure_array = (
                                    new_env_state.env_state.link_slot_departure_array
                                )
                                inner = env_state.env_state.replace(
                                    link_slot_array=new_link_slot_array,
                                    link_slot_departure_array=new_link_slot_departure_array,
                                )
                                env_state = env_state.replace(env_state=inner)
                                fix_count += 1
                            pbar.postfix[0] = block_count
                            pbar.postfix[1] = fix_count
                        # Replace env_state requests with unsorted ones
                        env_state = env_state.replace(
                            env_state=env_state.env_state.replace(list_of_requests=request_array)
                        )
                        blocking_events.append(blocking)
                    print(
                        f"  Seed {seed + 1}/{num_seeds}: blocking={sum(blocking_events) / FLAGS.TOTAL_TIMESTEPS:.5f}, blocks={block_count}, fixes={fix_count}",
                        flush=True,
                    )
                    blocking_prob = sum(blocking_events) / FLAGS.TOTAL_TIMESTEPS
                    all_blocking_probs.append(blocking_prob)
                    all_block_counts.append(block_count)
                    all_fix_counts.append(fix_count)
    return calls  # scaffolding: timing summary, metrics and run summary are cut


calls = main([])  # scaffolding
_report({"jit(step_env)"}, calls)  # scaffolding
