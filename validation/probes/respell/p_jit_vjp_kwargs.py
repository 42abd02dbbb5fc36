# source: ../shared/realworld/cases/jax282_jit_vjp_fun_per_x.py (jit of the vjp function built per point), the helper forwarding *args
# expect: JIT105 at line 14
# runtime: COMPILES 3 CALLS 3
import jax
import jax.numpy as jnp


def f(x):
    return jnp.sin(x) * x


def pullback(*args):
    _, vjp_fun = jax.vjp(f, *args)
    return jax.jit(vjp_fun)(jnp.ones(2))  # <-


for i in range(3):
    print(pullback(jnp.full(2, float(i)))[0])
