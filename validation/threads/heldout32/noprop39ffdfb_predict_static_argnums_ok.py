# source: https://github.com/bayesianempirimancer/jax-noprop/commit/39ffdfb9b5fe890d2c11706126309766c63571c1
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: VAE_flow.predict, the sibling of the broken sample(), has static_argnums=(0, 3, 4, 5) that do match its signature (self, num_steps, integration_method, output_type) and leaves the arrays and prng_key traced, so four evaluations with fresh keys compile once.

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
from functools import partial
from typing import Tuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import jax.random as jr


def integrate_ode(vector_field, params, z0, x, time_span, num_steps, method="euler", output_type="end_point"):  # scaffolding: stands in for src/utils/ode_integration.py (Euler only)
    dt = (time_span[1] - time_span[0]) / num_steps
    z = z0
    for i in range(num_steps):
        z = z + dt * vector_field(params, z, x, time_span[0] + i * dt)
    return z


class VAE_flow(nn.Module):  # scaffolding: a small stand-in for ct.py's VAE_flow (encoder, CRN and noise schedule cut)
    z_dim: int = 4
    x_dim: int = 3
    x_ndims: int = 1  # (ct.py's x_ndims property: number of trailing x dimensions)

    def setup(self):
        self.field = nn.Dense(self.z_dim)
        self.dec = nn.Dense(self.x_dim)

    def __call__(self, z, x, t):
        return self.dz_dt(z, x, t), self.decoder(z)

    def dz_dt(self, z, x, t, training=False):
        return self.field(z) - z * t

    def decoder(self, z, training=False):
        return self.dec(z)

    def _flatten_z(self, z):
        return z

    def _unflatten_z(self, z):
        return z

    @partial(jax.jit, static_argnums=(0, 3, 4, 5))  # self, num_steps, integration_method, output_type, and training are static arguments
    def predict(self, params: dict, x: jnp.ndarray, num_steps: int = 20, integration_method: str = "midpoint", output_type: str = "end_point", prng_key: jr.PRNGKey = None) -> jnp.ndarray:
        # (docstring trimmed)
        
        # Disable gradient tracking through parameters for inference
        params_no_grad = jax.lax.stop_gradient(params)
        
        # Generate initial latent state z_0
        batch_shape = x.shape[:-self.x_ndims]
        if prng_key is not None:
            # Generative mode: sample from unit normal distribution
            z_0 = jr.normal(prng_key, batch_shape + (self.z_dim,))
        else:
            # Regression mode: start from zero
            z_0 = jnp.zeros(batch_shape + (self.z_dim,))  # ode expects vectorized z
        
        # Define the CT vector field: dz/dt = tau_inverse(t) * (sqrt(alpha(t))*model_output - (1+alpha(t))/2*z)
        def vector_field(params, z, x, t):
            z = self._unflatten_z(z)
            dz_dt = self.apply(params, z, x, t, method = 'dz_dt', training=False)
            return self._flatten_z(dz_dt)
        
        # Integrate the ODE from t=0 to t=1 (CT flow process)
        z = integrate_ode(
            vector_field=vector_field,
            params=params_no_grad,
            z0=z_0,
            x=x,
            time_span=(0.0, 1.0),
            num_steps=num_steps,
            method=integration_method,
            output_type=output_type
        )
        
        z = self._unflatten_z(z)
        return self.apply(params, z, method='decoder', training=False)


model = VAE_flow()  # scaffolding
params = model.init(jr.PRNGKey(0), jnp.zeros((1, 4)), None, 0.0)  # scaffolding
calls = 0  # scaffolding
for k in range(4):  # scaffolding: four evaluation batches
    x = jr.normal(jr.PRNGKey(10 + k), (8, 3))  # scaffolding
    y_pred = model.predict(params, x, 20, "euler", "end_point", jr.PRNGKey(k))  # scaffolding: generative mode with a fresh key
    calls += 1  # scaffolding
_report({"jit(predict)"}, calls)  # scaffolding
