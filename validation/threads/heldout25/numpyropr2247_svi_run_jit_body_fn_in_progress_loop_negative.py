# source: https://github.com/pyro-ppl/numpyro/pull/2247
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: the pre-PR SVI.run progress-bar loop re-wraps jit(body_fn) on every step, but body_fn is the same function object for the whole run, so jit's cache hits and body_fn compiles once for 20 steps.
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


import jax
import jax.numpy as jnp
from jax import jit, lax, random
import tqdm

import numpyro  # scaffolding
import numpyro.distributions as dist  # scaffolding
from numpyro.infer import SVI, Trace_ELBO  # scaffolding
from numpyro.infer.svi import SVIRunResult  # scaffolding
from numpyro.infer.autoguide import AutoNormal  # scaffolding


class PrePRSVI(SVI):  # scaffolding: SVI.run as it was before the PR
    def run(
        self,
        rng_key,
        num_steps,
        *args,
        progress_bar=True,
        stable_update=False,
        forward_mode_differentiation=False,
        init_state=None,
        init_params=None,
        **kwargs,
    ):
        if num_steps < 1:
            raise ValueError("num_steps must be a positive integer.")

        def body_fn(svi_state, _):
            if stable_update:
                svi_state, loss = self.stable_update(
                    svi_state,
                    *args,
                    forward_mode_differentiation=forward_mode_differentiation,
                    **kwargs,
                )
            else:
                svi_state, loss = self.update(
                    svi_state,
                    *args,
                    forward_mode_differentiation=forward_mode_differentiation,
                    **kwargs,
                )
            return svi_state, loss

        if init_state is None:
            svi_state = self.init(rng_key, *args, init_params=init_params, **kwargs)
        else:
            svi_state = init_state
        if progress_bar:
            losses = []
            with tqdm.trange(1, num_steps + 1) as t:
                batch = max(num_steps // 20, 1)
                for i in t:
                    svi_state, loss = jit(body_fn)(svi_state, None)
                    losses.append(jax.device_get(loss))
                    if i % batch == 0:
                        if stable_update:
                            valid_losses = [x for x in losses[i - batch :] if x == x]
                            num_valid = len(valid_losses)
                            if num_valid == 0:
                                avg_loss = float("nan")
                            else:
                                avg_loss = sum(valid_losses) / num_valid
                        else:
                            avg_loss = sum(losses[i - batch :]) / batch
                        t.set_postfix_str(
                            "init loss: {:.4f}, avg. loss [{}-{}]: {:.4f}".format(
                                losses[0], i - batch + 1, i, avg_loss
                            ),
                            refresh=False,
                        )
            losses = jnp.stack(losses)
        else:
            svi_state, losses = lax.scan(body_fn, svi_state, None, length=num_steps)

        # Note: we also return the last svi_state for further inspection of both
        # optimizer's state and mutable state.
        return SVIRunResult(self.get_params(svi_state), svi_state, losses)


def model(x, y=None):  # scaffolding: the PR's dispatch-bound linear-regression benchmark, small
    w = numpyro.sample("w", dist.Normal(0.0, 1.0).expand([3]).to_event(1))  # scaffolding
    numpyro.sample("y", dist.Normal(x @ w, 1.0), obs=y)  # scaffolding


x = random.normal(random.PRNGKey(1), (100, 3))  # scaffolding
y = x @ jnp.array([1.0, -2.0, 0.5])  # scaffolding
svi = PrePRSVI(model, AutoNormal(model), numpyro.optim.Adam(0.01), Trace_ELBO())  # scaffolding
result = svi.run(random.PRNGKey(0), 20, x, y, progress_bar=True)  # scaffolding
print(result.losses.shape)  # scaffolding
_report({"jit(body_fn)"}, 20)  # scaffolding
