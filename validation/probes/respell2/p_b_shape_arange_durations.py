# source: validation/threads/heldout5/ripple4_jitted_waveform_varying_frequency_length.py (a jitted function called on grids of a different length each time), jnp.arange(0, T, dt) over a list of durations
# expect: JIT501 at line 17
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


@jax.jit
def waveform(t):
    return jnp.sin(2 * jnp.pi * t)


dt = 0.25
durations = [1.0, 2.0, 3.0]
for T in durations:
    t = jnp.arange(0.0, T, dt)
    print(waveform(t).sum())  # <-
