# source: https://github.com/google-research/e3x/commit/a08d4e7d0c7d795916bbd9ff889d7155628ee2c7
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The commit replaces the check with jax.lax.clamp(0.0, perturbation, 1.0), so the function traces under jit and compiles once for the four draws.

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


from typing import Tuple, Union

import jax
import jax.numpy as jnp
import jaxtyping

Array = jaxtyping.Array
Float = jaxtyping.Float
UInt32 = jaxtyping.UInt32
PRNGKey = UInt32[Array, '2']


# --- e3x/so3/rotations.py ---
def random_rotation(
    key: PRNGKey,
    perturbation: Union[float, Float[Array, '']] = 1.0,
    num: int = 1,  # When num=1, leading dimension is automatically squeezed.
) -> Union[Float[Array, '3 3'], Float[Array, 'num 3 3']]:
  r"""Samples a random :math:`3\times3` rotation matrix.

  Samples random :math:`3\times3` rotation matrices from :math:`\mathrm{SO(3)}`.
  The ``perturbation`` parameter controls how strongly random points on a sphere
  centered on the origin are perturbed by the rotation. For
  ``perturbation=1.0``, any point on the sphere is rotated to any other point on
  the sphere with equal probability. If ``perturbation<1.0``, returned rotation
  matrices are biased to identity matrices. For example, with
  ``perturbation=0.5``, a point on the sphere is rotated to any other point on
  the same hemisphere with equal probability.

  Example:
    >>> import jax
    >>> import e3x
    >>> e3x.so3.random_rotation(jax.random.PRNGKey(0), perturbation=1.0)
    Array([[-0.93064284, -0.11807037,  0.34635717],
           [ 0.33270139,  0.1210826 ,  0.9352266 ],
           [-0.15236041,  0.9855955 , -0.07340252]], dtype=float32)
    >>> e3x.so3.random_rotation(jax.random.PRNGKey(0), perturbation=0.0)
    Array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]], dtype=float32)

  Args:
    key: A PRNG key used as the random key.
    perturbation: A value between 0.0 and 1.0 that determines the perturbation.
      Values outside the valid range are clamped.
    num: Number of returned rotation matrices.

  Returns:
    An Array of shape :math:`(\mathrm{num}, 3, 3)` or :math:`(3, 3)` (if num =
    1) representing random :math:`3\times3` rotation matrices.
  """
  # Clamp perturbation to a meaningful range.
  perturbation = jax.lax.clamp(0.0, perturbation, 1.0)
  # Draw random numbers and transform them.
  twopi = 2 * jnp.pi
  u = jax.random.uniform(key, shape=(num, 3))
  sqrt1 = jnp.sqrt(1 - u[..., 0])
  sqrt2 = jnp.sqrt(u[..., 0])
  angl1 = twopi * u[..., 1]
  angl2 = twopi * u[..., 2]
  # Construct random quaternion.
  r = sqrt1 * jnp.sin(angl1)
  i = sqrt1 * jnp.cos(angl1)
  j = sqrt2 * jnp.sin(angl2)
  k = sqrt2 * jnp.cos(angl2)
  # Perturbation (Slerp starting from identity quaternion).
  flip = r < 0  # Flip sign if r < 0 (always take the shorter route).
  r = jnp.where(flip, -r, r)
  i = jnp.where(flip, -i, i)
  j = jnp.where(flip, -j, j)
  k = jnp.where(flip, -k, k)
  phi = jnp.arccos(r)
  sinphi = jnp.sin(phi)
  # Prevent division by zero.
  zeromask = jnp.abs(sinphi) < 1e-9
  f1 = jnp.where(
      zeromask, 1 - perturbation, jnp.sin((1 - perturbation) * phi) / sinphi
  )
  f2 = jnp.where(zeromask, perturbation, jnp.sin(perturbation * phi) / sinphi)
  r, i, j, k = f1 + f2 * r, f2 * i, f2 * j, f2 * k
  # Construct rotation matrix.
  i2, j2, k2 = i * i, j * j, k * k
  ij, ik, jk, ir, jr, kr = i * j, i * k, j * k, i * r, j * r, k * r
  row1 = jnp.stack((1 - 2 * (j2 + k2), 2 * (ij - kr), 2 * (ik + jr)), axis=-1)
  row2 = jnp.stack((2 * (ij + kr), 1 - 2 * (i2 + k2), 2 * (jk - ir)), axis=-1)
  row3 = jnp.stack((2 * (ik - jr), 2 * (jk + ir), 1 - 2 * (i2 + j2)), axis=-1)
  rot = jnp.squeeze(jnp.stack((row1, row2, row3), axis=-1))
  return rot


# --- tests/so3/rotations_test.py ---
def test_random_rotation_is_jittable() -> None:
  jitted_random_rotation = jax.jit(random_rotation)
  jitted_random_rotation(jax.random.PRNGKey(0), jnp.array(1.0))
  for seed in range(1, 4):  # scaffolding: more draws, e.g. data augmentation
    jitted_random_rotation(jax.random.PRNGKey(seed), jnp.array(0.5))


try:  # scaffolding
  test_random_rotation_is_jittable()
  _report({"jit(random_rotation)"}, 4)
except Exception as e:  # scaffolding
  print(f"ERROR {type(e).__name__}")
