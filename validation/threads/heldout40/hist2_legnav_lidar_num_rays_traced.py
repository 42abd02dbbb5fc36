# source: https://github.com/otr-ebla/LegNav-Sim/commit/f4dd3d5fabfd12f131326adb9159d808ebb02275
# expect: trace-time-error at line 88
# runtime: ERROR ConcretizationTypeError
# why: compute_lidar is a plain @jax.jit, so num_rays (the ray count, 108) arrives as a tracer and jnp.arange(num_rays) cannot build an array of unknown length: the first LiDAR sweep raises at trace time.

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
# src/jax_env/jax_physics.py of otr-ebla/LegNav-Sim at f4dd3d5^
import jax
import jax.numpy as jnp

# =============================================================================
# VECTORIZED PHYSICS ENGINE
# =============================================================================

@jax.jit
def get_ray_wall_intersections(x0: jnp.float32, y0: jnp.float32, angles: jnp.ndarray, room_w: jnp.float32, room_h: jnp.float32) -> jnp.ndarray:
    """
    Calculates intersections between N rays and the 4 room walls.
    angles: array of shape (N,) containing ray angles.
    Returns: array of shape (N,) with the minimum distance to a wall for each ray.
    """
    dx = jnp.cos(angles)
    dy = jnp.sin(angles)
    
    # Avoid division by zero using a tiny epsilon
    eps = 1e-7
    dx = jnp.where(jnp.abs(dx) < eps, eps, dx)
    dy = jnp.where(jnp.abs(dy) < eps, eps, dy)

    # Time to intersection (t) for all 4 walls for all N rays
    t_left   = (0.0 - x0) / dx
    t_right  = (room_w - x0) / dx
    t_bottom = (0.0 - y0) / dy
    t_top    = (room_h - y0) / dy

    # A valid intersection must be strictly in front of the ray (t > 0)
    # If invalid, we set the distance to infinity
    t_left   = jnp.where(t_left > 0, t_left, jnp.inf)
    t_right  = jnp.where(t_right > 0, t_right, jnp.inf)
    t_bottom = jnp.where(t_bottom > 0, t_bottom, jnp.inf)
    t_top    = jnp.where(t_top > 0, t_top, jnp.inf)

    # The actual distance is the minimum of the valid wall intersections
    min_dist = jnp.minimum(
        jnp.minimum(t_left, t_right),
        jnp.minimum(t_bottom, t_top)
    )
    
    return min_dist

# --- scaffolding: _intersect_ray_circle / get_ray_circles_intersections cut. At this commit the circle
# kernel is vmapped twice (@jax.vmap on the scalar kernel plus two jax.vmap calls) and crashes with an
# unrelated vmap rank error, fixed later in 3f34c1b; this stand-in returns "no circle hit" for every ray.
def get_ray_circles_intersections(x0, y0, angles, circles):  # scaffolding
    return jnp.full(angles.shape, jnp.inf)  # scaffolding
# --- end scaffolding ---

@jax.jit
def compute_lidar(x: jnp.float32, y: jnp.float32, theta: jnp.float32, circles: jnp.ndarray, num_rays: int, fov: float, max_dist: float, room_w: float, room_h: float) -> jnp.ndarray:
    """
    Full Lidar sweep computation.
    """
    start_angle = theta - (fov / 2.0)
    
    # Generate array of angles: shape (N,)
    angles = start_angle + jnp.arange(num_rays) * (fov / (num_rays - 1))
    
    # 1. Intersect with walls
    wall_dists = get_ray_wall_intersections(x, y, angles, room_w, room_h)
    
    # 2. Intersect with all circles (people + circular obstacles)
    circle_dists = get_ray_circles_intersections(x, y, angles, circles)
    
    # 3. The final Lidar reading is the minimum among walls, circles, and max_dist
    final_dists = jnp.minimum(wall_dists, circle_dists)
    final_dists = jnp.clip(final_dists, 0.0, max_dist)
    
    return final_dists

# --- scaffolding: the call from jax_env.get_obs (NUM_RAYS, FOV, MAX_LIDAR_DIST, ROOM_W, ROOM_H from jax_env.py) ---
NUM_RAYS = 108  # scaffolding
ROOM_W = 12.0  # scaffolding
ROOM_H = 12.0  # scaffolding
MAX_LIDAR_DIST = 15.0  # scaffolding
FOV = jnp.pi  # scaffolding
all_circles = jnp.array([[3.0, 4.0, 0.3], [6.0, 2.0, 0.3], [8.0, 9.0, 0.5]])  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for t in range(5):  # scaffolding: five robot poses
        raw_lidar = compute_lidar(1.0 + 0.5 * t, 2.0, 0.3 * t, all_circles, NUM_RAYS, FOV, MAX_LIDAR_DIST, ROOM_W, ROOM_H)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(compute_lidar)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
