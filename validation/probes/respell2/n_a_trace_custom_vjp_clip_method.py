# source: look-alike of p_a_trace_custom_vjp_clip_method: the bound a Python float closed over
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax
import jax.numpy as jnp


def _clip_grad(x, bound):
    return x


def _fwd(x, bound):
    return x, None


def _bwd(bound, _, g):
    return (jnp.clip(g, -bound, bound),)


clip_grad = jax.custom_vjp(_clip_grad, nondiff_argnums=(1,))
clip_grad.defvjp(_fwd, _bwd)
BOUND = 0.5


def loss(w):
    return jnp.sum(clip_grad(w, BOUND) ** 2)


grad_fn = jax.jit(jax.grad(loss))
print(grad_fn(jnp.ones(3)))
