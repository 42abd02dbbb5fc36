# source: https://github.com/Anuj0x/slam-in-jax/blob/ada64cd5f1d45a486f7104d1859cb2ef63705375/src/jaxslam/algorithms.py
# expect: trace-time-error at line 43
# runtime: ERROR ConcretizationTypeError
# why: The @jit-decorated _build_constraints_batch converts a traced value to a Python int (int(jnp.max(measurements[:, 0]))) to size the landmark block, which raises ConcretizationTypeError at trace time; int(landmark_id) in the measurement loop would fail the same way.

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


from typing import Tuple
import jax
import jax.numpy as jnp
from jax import jit


@jit
def _build_constraints_batch(
    measurements: jnp.ndarray,  # Shape: (N_measurements, 3) - [landmark_id, dx, dy]
    motions: jnp.ndarray,       # Shape: (N_motions, 2) - [dx, dy]
    omega_init: jnp.ndarray,    # Initial omega matrix
    xi_init: jnp.ndarray        # Initial xi vector
) -> Tuple[jnp.ndarray, jnp.ndarray]:
    """JAX-compiled function to build constraint matrices in batch."""
    N_poses = len(motions) + 1  # +1 for initial pose
    N_landmarks = int(jnp.max(measurements[:, 0])) + 1 if len(measurements) > 0 else 0
    N_vars = 2 * (N_poses + N_landmarks)

    omega = omega_init.copy()
    xi = xi_init.copy()

    # Process motion constraints
    for i in range(len(motions)):
        pose_i = 2 * i
        pose_j = 2 * (i + 1)

        dx, dy = motions[i]

        # Motion constraint: pose_j = pose_i + [dx, dy]
        # This creates constraints between consecutive poses

        # Omega updates for motion
        omega = omega.at[pose_i:pose_i+2, pose_i:pose_i+2].add(1.0)
        omega = omega.at[pose_j:pose_j+2, pose_j:pose_j+2].add(1.0)
        omega = omega.at[pose_i:pose_i+2, pose_j:pose_j+2].add(-1.0)
        omega = omega.at[pose_j:pose_j+2, pose_i:pose_i+2].add(-1.0)

        # Xi updates for motion
        xi = xi.at[pose_i:pose_i+2].add(jnp.array([-dx, -dy]))
        xi = xi.at[pose_j:pose_j+2].add(jnp.array([dx, dy]))

    # Process measurement constraints
    for measurement in measurements:
        landmark_id, dx, dy = measurement
        landmark_idx = 2 * (N_poses + int(landmark_id))

        # For simplicity, associate measurements with the last pose
        pose_idx = 2 * (len(motions))  # Last pose

        # Measurement constraint: landmark = pose + [dx, dy]
        omega = omega.at[pose_idx:pose_idx+2, pose_idx:pose_idx+2].add(1.0)
        omega = omega.at[landmark_idx:landmark_idx+2, landmark_idx:landmark_idx+2].add(1.0)
        omega = omega.at[pose_idx:pose_idx+2, landmark_idx:landmark_idx+2].add(-1.0)
        omega = omega.at[landmark_idx:landmark_idx+2, pose_idx:pose_idx+2].add(-1.0)

        xi = xi.at[pose_idx:pose_idx+2].add(jnp.array([-dx, -dy]))
        xi = xi.at[landmark_idx:landmark_idx+2].add(jnp.array([dx, dy]))

    return omega, xi


# scaffolding: what GraphSLAM.build_constraint_matrices passes (3 motions, 3 landmark measurements)
motions_array = jnp.array([[1.0, 0.5], [0.8, -0.2], [1.1, 0.3]])
measurements_array = jnp.array([[0.0, 2.0, 1.0], [1.0, -1.5, 0.5], [2.0, 0.3, -2.2]])
N_vars = 2 * (len(motions_array) + 1 + 3)
omega = jnp.zeros((N_vars, N_vars))
xi = jnp.zeros(N_vars)
try:  # scaffolding
    omega, xi = _build_constraints_batch(
        measurements_array, motions_array, omega, xi
    )
    _report({"jit(_build_constraints_batch)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
