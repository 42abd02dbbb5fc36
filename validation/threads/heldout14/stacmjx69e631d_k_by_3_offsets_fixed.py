# source: https://github.com/talmolab/stac-mjx/commit/69e631df94c8e376c7fd4174d632841e0cc81427
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The commit's fix: offsets and the regularization mask stay (K, 3) end to end, so every calibration iteration calls _m_opt with the same shapes and it compiles once.

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
import time
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jp
from flax import struct
from jax import jit


@struct.dataclass
class MjxModel:  # scaffolding: the mjx.Model fields used here (a 3-body planar chain)
    site_bodyid: jax.Array
    site_pos: jax.Array


@struct.dataclass
class MjxData:  # scaffolding: the mjx.Data fields used here
    qpos: jax.Array
    xpos: jax.Array
    xmat: jax.Array


class utils:  # scaffolding: stac_mjx.utils stand-ins (planar forward kinematics)
    @staticmethod
    def kinematics(mjx_model, data):
        angles = jp.cumsum(data.qpos)
        c, s = jp.cos(angles), jp.sin(angles)
        zeros, ones = jp.zeros_like(c), jp.ones_like(c)
        xmat = jp.stack([jp.stack([c, -s, zeros], -1), jp.stack([s, c, zeros], -1),
                         jp.stack([zeros, zeros, ones], -1)], -2)
        xpos = jp.cumsum(jp.stack([c, s, zeros], -1), axis=0)
        return data.replace(xpos=xpos, xmat=xmat)

    @staticmethod
    def com_pos(mjx_model, data):
        return data

    @staticmethod
    def set_site_pos(mjx_model, offsets, site_idxs):
        return mjx_model.replace(site_pos=mjx_model.site_pos.at[site_idxs].set(offsets))

    @staticmethod
    def get_site_pos(mjx_model, site_idxs):
        return mjx_model.site_pos[site_idxs]


class MOptResult(NamedTuple):
    params: jp.ndarray
    error: jp.ndarray


@partial(jit, static_argnames=())
def _m_opt(
    mjx_model,
    mjx_data,
    keypoints: jp.ndarray,
    q: jp.ndarray,
    initial_offsets: jp.ndarray,
    is_regularized: jp.ndarray,
    reg_coef: float,
    site_idxs: jp.ndarray,
):
    """Closed-form marker offset solve."""
    T = keypoints.shape[0]
    K = site_idxs.shape[0]

    y = keypoints.reshape(T, K, 3)
    d = is_regularized.astype(y.dtype)

    site_bodyid = jp.array(mjx_model.site_bodyid)[site_idxs]

    def fk_single(q_t):
        """Run FK for a single frame, return body pos and rot for sites."""
        data_t = mjx_data.replace(qpos=q_t)
        data_t = utils.kinematics(mjx_model, data_t)
        data_t = utils.com_pos(mjx_model, data_t)
        return data_t.xpos[site_bodyid], data_t.xmat[site_bodyid]

    p_all, R_all = jax.vmap(fk_single)(q)         # (T, K, 3), (T, K, 3, 3)
    z_all = y - p_all                             # (T, K, 3)
    s = jp.einsum("tkji,tkj->ki", R_all, z_all)   # s_k = sum_t R_{t,k}^T z_{t,k}  ->  (K, 3)
    z2 = jp.sum(z_all ** 2)                       # z2 = sum_t ||z_t||^2  ->  scalar

    # Closed-form solve, coordinate-wise
    denom = T + reg_coef * d
    numer = s + reg_coef * d * initial_offsets
    m_star = numer / denom

    # Residual error at the solution
    data_term = z2 - 2.0 * jp.sum(m_star * s) + T * jp.sum(m_star ** 2)
    reg_term = reg_coef * jp.sum((d * (m_star - initial_offsets)) ** 2)
    error = data_term + reg_term

    return MOptResult(params=m_star, error=error)


class StacCore:  # scaffolding: only the m_opt wrapper
    def m_opt(self, mjx_model, mjx_data, keypoints, q, initial_offsets, is_regularized, reg_coef, site_idxs):
        return _m_opt(
            mjx_model,
            mjx_data,
            keypoints,
            q,
            initial_offsets,
            is_regularized,
            reg_coef,
            site_idxs,
        )


def offset_optimization(
    stac_core_obj: StacCore,
    mjx_model,
    mjx_data,
    kp_data: jp.ndarray,
    offsets: jp.ndarray,
    q: jp.ndarray,
    n_sample_frames: int,
    is_regularized: jp.ndarray,
    site_idxs: jp.ndarray,
    m_reg_coef: float,
):
    key = jax.random.PRNGKey(0)

    # shuffle frames to get sample frames
    all_indices = jp.arange(kp_data.shape[0])
    shuffled_indices = jax.random.permutation(key, all_indices, independent=True)
    time_indices = shuffled_indices[:n_sample_frames]

    s = time.time()
    print("Begining offset optimization:")

    keypoints = jp.array(kp_data[time_indices, :])
    q = jp.take(q, time_indices, axis=0)

    res = stac_core_obj.m_opt(
        mjx_model,
        mjx_data,
        keypoints,
        q,
        offsets,
        is_regularized,
        m_reg_coef,
        site_idxs,
    )

    offset_opt_param = res.params
    print(f"Final error of {res.error}")

    mjx_model = utils.set_site_pos(mjx_model, offset_opt_param, site_idxs)

    # Forward kinematics, and save the results to the walker sites as well
    mjx_data = utils.kinematics(mjx_model, mjx_data)

    print(f"Offset optimization finished in {time.time() - s} seconds")

    return mjx_model, mjx_data, offset_opt_param


# scaffolding: Stac.fit_offsets reduced to the offset flow (pose optimization replaced by noisy
# ground-truth poses), three calibration iterations on a 3-body chain with one marker per body
K, n_frames, N_ITERS = 3, 40, 3
key = jax.random.PRNGKey(0)
true_offsets = jp.array([[0.1, 0.05, 0.0], [0.0, -0.1, 0.02], [0.05, 0.0, -0.03]])
q_true = 0.3 * jax.random.normal(key, (n_frames, K))
mjx_model = MjxModel(site_bodyid=jp.arange(K), site_pos=jp.zeros((K, 3)))
mjx_data = MjxData(qpos=jp.zeros(K), xpos=jp.zeros((K, 3)), xmat=jp.tile(jp.eye(3), (K, 1, 1)))


def markers(q_t):
    d = utils.kinematics(mjx_model, mjx_data.replace(qpos=q_t))
    return (d.xpos + jp.einsum("kij,kj->ki", d.xmat, true_offsets)).reshape(-1)


kp_data = jax.vmap(markers)(q_true)
stac_core_obj = StacCore()
body_site_idxs = jp.arange(K)
is_regularized = jp.stack([jp.array([1.0, 1.0, 1.0])] * K)

offsets = jp.copy(utils.get_site_pos(mjx_model, body_site_idxs))
calls = 0
for n_iter in range(N_ITERS):
    qposes = q_true + 0.01 * jax.random.normal(jax.random.PRNGKey(n_iter + 1), q_true.shape)
    mjx_model, mjx_data, offsets = offset_optimization(
        stac_core_obj,
        mjx_model,
        mjx_data,
        kp_data,
        offsets,
        qposes,
        20,
        is_regularized,
        body_site_idxs,
        0.1,
    )
    calls += 1
_report({"jit(_m_opt)"}, calls)
