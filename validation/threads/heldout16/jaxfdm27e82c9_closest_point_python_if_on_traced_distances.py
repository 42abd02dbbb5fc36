# source: https://github.com/arpastrana/jax_fdm/commit/27e82c9d254aef0ad8c9cbf411805c428ed5df63
# expect: trace-time-error at line 112
# runtime: ERROR TracerBoolConversionError
# why: closest_point_on_segment picks the closest point with Python if on distances computed from the traced point, so under jit the comparison raises TracerBoolConversionError.

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


import jax.numpy as jnp


# src/jax_fdm/geometry.py (before the commit; up to distance_point_point_sqrd)
def angle_vectors(u, v):
    """
    Compute the smallest angle in degrees between two vectors.
    """
    L = length_vector(u) * length_vector(v)
    cosim = (u @ v) / L
    cosim = jnp.maximum(jnp.minimum(cosim, 1.0), -1.0)

    return jnp.degrees(jnp.arccos(cosim))


def length_vector(u):
    """
    Calculate the length of a vector along its columns.
    """
    return jnp.linalg.norm(u, axis=-1, keepdims=True)


def normalize_vector(u):
    """
    Scale a vector such that it has a unit length.
    """
    return u / length_vector(u)


def subtract_vectors(u, v):
    """
    Subtract two vectors.
    """
    return u - v


def vector_projection(u, v):
    """
    Calculates the orthogonal projection of u onto v.
    """
    l2 = jnp.sum(v ** 2)
    x = (u @ jnp.transpose(v)) / l2

    return v * x


def closest_point_on_plane(point, plane):
    """
    Computes the closest location on a plane to a supplied point.
    """
    origin, normal = plane
    normal = normalize_vector(normal)
    d = normal @ origin
    e = normal @ point - d
    k = e / jnp.sum(jnp.square(normal))

    return point - normal * k


def closest_point_on_line(point, line):
    """
    Computes the closest location on a line to a supplied point.
    """
    a, b = line
    ab = b - a
    ap = point - a
    c = vector_projection(ap, ab)

    return a + c


def closest_point_on_segment(point, segment):
    """
    Calculate the closest location on a segment to an input point.
    """
    a, b = segment
    p = closest_point_on_line(point, segment)

    # calculate distances to the three possible points
    d = distance_point_point_sqrd(a, b)
    d1 = distance_point_point_sqrd(a, p)
    d2 = distance_point_point_sqrd(b, p)

    # return closest amont the three points
    if d1 > d or d2 > d:
        if d1 < d2:
            return a
        return b

    return p


def distance_point_point_sqrd(u, v):
    """
    Calculate the square of the distance between two points.
    """
    vector = subtract_vectors(u, v)

    return jnp.sum(jnp.square(vector))


# scaffolding: the __main__ check the commit adds to geometry.py
from jax import jit

point_a = [1.0, 0.0, 0.0]
point_b = [2.5, 0.0, 0.0]

segment = tuple([jnp.array(point) for point in (point_a, point_b)])

test_points = [[2.0, 1.0, 0.0],
               [-1.0, 0.0, 0.0],
               [5.0, -1.0, 0.0]]

result_points = [[2.0, 0.0, 0.0],
                 [1.0, 0.0, 0.0],
                 [2.5, 0.0, 0.0]
                 ]

calls = 0
try:  # scaffolding
    for tpoint, rpoint in zip(test_points, result_points):
        cpoint = jit(closest_point_on_segment)(jnp.array(tpoint), segment)
        assert jnp.allclose(cpoint, jnp.array(rpoint)), f"got {cpoint} wanted {rpoint}"
        calls += 1
    _report({"jit(closest_point_on_segment)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
