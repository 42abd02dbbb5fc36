# source: validation/threads/heldout6/jax2912_traced_arg_in_custom_vjp_nondiff_argnums.py (a traced value as a custom_vjp nondiff argument), `jax.custom_vjp(f, nondiff_argnums=(1,))` as a call, the bound reached from a jitted loss through a keyword
# expect: JIT810 at line 25
# runtime: ERROR UnexpectedTracerError
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


def loss(w, bound):
    return jnp.sum(clip_grad(w, bound=bound) ** 2)  # <-


grad_fn = jax.jit(jax.grad(loss))
print(grad_fn(jnp.ones(3), jnp.float32(0.5)))
