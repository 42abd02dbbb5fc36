# source: validation/threads/heldout5/ripple4_jitted_waveform_varying_frequency_length.py, look-alike: jnp.arange(start, stop, step) with the same bounds on every iteration, only a traced value changes
# expect: none
# runtime: COMPILES 1 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def waveform(t, f):
    return jnp.sin(2 * jnp.pi * f * t)


dt = 0.25
t = jnp.arange(0.0, 2.0, dt)
for f in [1.0, 2.0, 3.0]:
    print(waveform(t, f).sum())
