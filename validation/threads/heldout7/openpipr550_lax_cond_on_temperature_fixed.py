# source: https://github.com/Physical-Intelligence/openpi/pull/550
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: The PR's fix chooses between categorical sampling and argmax with jax.lax.cond on the traced temperature (and threads the RNG through the loop carry), so the jitted sampler compiles once.

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
import functools
import inspect
from collections.abc import Callable
from typing import Any

import flax.nnx as nnx
import jax
import jax.numpy as jnp

PALIGEMMA_EOS_TOKEN = 1


def module_jit(meth: Callable, *jit_args, **jit_kwargs) -> Callable:
    """openpi's nnx_utils.module_jit (docstring shortened): jax.jit over a bound nnx.Module method."""
    if not (inspect.ismethod(meth) and isinstance(meth.__self__, nnx.Module)):
        raise ValueError("module_jit must only be used on bound methods of nnx.Modules.")

    graphdef, state = nnx.split(meth.__self__)

    def fun(state: nnx.State, *args, **kwargs):
        module = nnx.merge(graphdef, state)
        return meth.__func__(module, *args, **kwargs)

    jitted_fn = jax.jit(fun, *jit_args, **jit_kwargs)

    @functools.wraps(meth)
    def wrapper(*args, **kwargs):
        return jitted_fn(state, *args, **kwargs)

    return wrapper


def put_along_last_axis(arr, indices, values):
    # scaffolding: the repository's helper, simplified to one position per row
    return arr.at[jnp.arange(arr.shape[0])[:, None], indices].set(values)


class Pi0FAST(nnx.Module):
    """scaffolding: a tiny decoder with the decoding loop of pi0_fast.Pi0FAST.sample_actions."""

    def __init__(self, vocab=8, *, rngs: nnx.Rngs):
        self.llm = nnx.Linear(vocab, vocab, rngs=rngs)
        self.vocab = vocab

    def sample_actions(
        self,
        rng,
        observation,
        *,
        max_decoding_steps: int = 4,
        temperature: float = 0.0,
    ):
        last_logit = self.llm(observation)[:, None, :]
        output_tokens = jnp.zeros((last_logit.shape[0], max_decoding_steps))

        def step(carry):
            rng, last_logit, output_tokens, cache, _, step = carry

            # Sample token from last logit
            # Split RNG for this step
            rng, rng_step = jax.random.split(rng)
            token = jax.lax.cond(
                temperature > 0.0,
                lambda _: jax.random.categorical(rng_step, last_logit / temperature, axis=-1),
                lambda _: jnp.argmax(last_logit, axis=-1),
                operand=None,
            )
            output_tokens = put_along_last_axis(output_tokens, jnp.broadcast_to(step, (token.shape[0], 1)), token)

            # Check for early stopping --> stop if all batch elements have EOS token
            has_eos = jnp.any(token == PALIGEMMA_EOS_TOKEN, axis=-1)
            all_eos = jnp.all(has_eos)

            # Decode one step (scaffolding: one-hot token through the linear layer)
            last_logit = self.llm(jax.nn.one_hot(token, self.vocab))
            kv_cache = cache

            return rng, last_logit, output_tokens, kv_cache, all_eos, step + 1

        def cond(carry):
            _, _, _, _, all_eos, step = carry
            return (~all_eos) & (step < max_decoding_steps)

        # Use lax.while_loop so we can jit the full decoding loop.
        _, _, output_tokens, _, _, _ = jax.lax.while_loop(cond, step, (rng, last_logit, output_tokens, jnp.zeros(()), False, 0))
        return output_tokens


class Policy:
    """scaffolding: the parts of openpi's Policy that jit sample_actions and pass sample_kwargs."""

    def __init__(self, model, sample_kwargs: dict[str, Any] | None = None):
        self._sample_actions = module_jit(model.sample_actions)
        self._sample_kwargs = sample_kwargs or {}

    def infer(self, rng, obs):
        return self._sample_actions(rng, obs, **self._sample_kwargs)


model = Pi0FAST(rngs=nnx.Rngs(0))
policy = Policy(model, sample_kwargs={"temperature": 0.7})
obs = jnp.ones((2, 8))
try:
    actions = policy.infer(jax.random.PRNGKey(0), obs)
    actions = policy.infer(jax.random.PRNGKey(1), obs)
    _report({"jit(fun)"}, 2)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
