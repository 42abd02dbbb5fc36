# source: https://github.com/sb-2700/ml4dynamics/blob/e5cefe2454f6ea48178640e24bcb9e718d763b4a/ml4dynamics/dataset_utils/react_diff_correction.py
# expect: jit-in-loop-or-body at line 214
# runtime: COMPILES 4 CALLS 4
# why: The reaction-diffusion dataset script wraps jax.jit(partial(calc_correction, rd_fine, rd_coarse, n, r)) inside the loop over cases; every case builds a new partial, so the correction function is traced and compiled again for each case although nothing changed.

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


from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import random as random
from jax.numpy.linalg import solve

jax.config.update("jax_enable_x64", True)


# --- ml4dynamics/dynamics.py (base class trimmed to what react_diff uses) ---
class dynamics(object):
  def __init__(self, model_type, N, T=0, dt=0.001, tol=1e-8, init_scale=1e-2,
               tv_scale=1e-8, rng=random.PRNGKey(0), plot=False):  # (attributes for Lyapunov/plots trimmed)
    super().__init__()
    self.model_type = model_type
    self.N = N  # dimension
    self.T = T
    self.dt = dt
    self.step_num = int(self.T / self.dt)
    self.rng = rng

  def run_simulation(self, x, iter: callable):
    step_num = self.step_num
    self.x_hist = np.zeros([step_num, *x.shape])
    for i in range(step_num):
      self.x_hist[i] = x
      x = iter(x)



class react_diff(dynamics):
  r"""
  
  $$
    \frac{\patial \mathbf{u}}{\partial t} = D \Delta \mfu + 
    \phi(\mathbf{u}), \quad T \in [0, 20], 	\\
		\phi(\mathbf{u}) = \phi(u, v) = \begin{pmatrix}
			u - u^3 - v + \alpha	\\
			\beta(u - v)
    \end{pmatrix}
  $$

  The dimension of the state variable is given by $N = 2n^2$ where $n$ is the
  spatial discretization size.
  """

  def __init__(
    self,
    model_type='react_diff',
    L=2 * jnp.pi,
    N=128**2 * 2,
    T=10,
    dt=0.01,
    alpha=0.01,
    beta=1.0,
    gamma=0.05,
    d=2,
    tol=1e-8,
    init_scale=4,
    tv_scale=1e-8,
    plot=False
  ):
    super(react_diff,
          self).__init__(model_type, N, T, dt, tol, init_scale, tv_scale, plot)

    self.L = L
    self.n = int(jnp.sqrt(self.N / 2))
    self.dx = L / self.n
    self.alpha = alpha
    self.beta = beta
    self.gamma = gamma
    self.d = d
    self.assembly_matrix()

  def f(self, x):
    print("This is an abstract f method!")
    raise NotImplementedError

  def assembly_matrix(self):
    """assemble matrices used in the calculation
    A1 = I - gamma dt \Delta, used in implicit discretization of diffusion term, size n2*n2
    A2 = I - gamma dt/2 \Delta, used in CN discretization of diffusion term, size n2*n2
    A3 = I + gamma dt/2 \Delta, used in CN discretization of diffusion term, size n2*n2
    D, size 4n2*n2, Jacobi of the Newton solver in CN discretization
    :d: ratio between the diffusion coeff for u & v
    """

    n = self.n
    gamma = self.gamma
    dt = self.dt
    d = self.d
    dx = self.dx

    L = jnp.eye(n) * -2 + jnp.eye(n, k=1) + jnp.eye(n, k=-1)
    L = L.at[0, -1].set(1)
    L = L.at[-1, 0].set(1)
    L = L / (dx**2)

    # matrix for ADI scheme
    self.L_uminus = jnp.eye(n) - L * gamma * dt / 2
    self.L_uplus = jnp.eye(n) + L * gamma * dt / 2
    self.L_vminus = jnp.eye(n) - L * gamma * dt / 2 * d
    self.L_vplus = jnp.eye(n) + L * gamma * dt / 2 * d

  def adi(self, u):

    dt = self.dt
    rhsu = self.L_uplus @ u[..., 0] @ self.L_uplus +\
      dt * (u[..., 0] - u[..., 1] - u[..., 0]**3 + self.alpha)
    rhsv = self.L_vplus @ u[..., 1] @ self.L_vplus +\
      self.beta * dt * (u[..., 0] - u[..., 1])

    result = jnp.concatenate(
      [
        (solve(self.L_uminus,
               solve(self.L_uminus, rhsu).T).T)[..., None],
        (solve(self.L_uminus,
               solve(self.L_vminus, rhsv).T).T)[..., None]
      ],
      axis=2
    )
    return result


# --- ml4dynamics/dataset_utils/dataset_utils.py ---
def calc_correction(rd_fine, rd_coarse, nx: float, r: int, uv: jnp.ndarray):
  """
  Args:
    uv: shape = [nx, nx, 2]
  """
  next_step_fine = rd_fine.adi(uv)
  tmp = jnp.zeros((nx // r, nx // r, 2))
  for k in range(r):
    for j in range(r):
      tmp += uv[k::r, j::r]
  tmp = tmp / (r**2)
  next_step_coarse = rd_coarse.adi(tmp)
  next_step_coarse_interp = jnp.concatenate(
    [
      jnp.kron(next_step_coarse[..., 0], jnp.ones((r, r)))[..., None],
      jnp.kron(next_step_coarse[..., 1], jnp.ones((r, r)))[..., None],
    ],
    axis=2
  )

  return next_step_fine - next_step_coarse_interp



# --- ml4dynamics/dataset_utils/react_diff_correction.py: main(), "fine_correction" path ---
def main():
  # scaffolding: config/react_diff.yaml values replaced by small constants
  T = 0.03  # scaffolding
  dt = 0.01  # scaffolding
  step_num = int(T / dt)
  n = 16  # scaffolding
  r = 2  # scaffolding
  sgs_model = "fine_correction"
  # solver parameters
  rng = random.PRNGKey(0)  # scaffolding: config.sim.seed
  case_num = 4  # scaffolding
  # react_diff simulator with periodic BC
  rd_fine = react_diff(L=2 * jnp.pi, N=n**2 * 2, T=T, dt=dt)  # scaffolding: utils.create_fine_coarse_simulator
  rd_coarse = react_diff(L=2 * jnp.pi, N=(n // r)**2 * 2, T=T, dt=dt)  # scaffolding

  if sgs_model == "fine_correction":
    N = n
  elif sgs_model == "filter" or sgs_model == "coarse_correction":
    N = n // r
  inputs = np.zeros((case_num, step_num, N, N, 2))
  outputs = np.zeros((case_num, step_num, N, N, 2))
  for i in range(case_num):
    print(i)
    rng, key = random.split(rng)
    max_freq = 10
    u_fft = jnp.zeros((n, n, 2))
    u_fft = u_fft.at[:max_freq, :max_freq].set(
      random.normal(key, shape=(max_freq, max_freq, 2))
    )
    u0 = jnp.real(jnp.fft.fftn(u_fft, axes=(0, 1))) / n * 10
    rd_fine.run_simulation(u0, rd_fine.adi)

    output = np.zeros_like(outputs[0])
    if sgs_model == "fine_correction":
      calc_correction = jax.jit(
        partial(dataset_utils.calc_correction, rd_fine, rd_coarse, n, r)
      )
      for j in range(rd_fine.step_num):
        output[j] = calc_correction(rd_fine.x_hist[j]) / dt
    outputs[i] = output  # (the filter/coarse_correction branches and the HDF5 output are cut)
  return case_num  # scaffolding


class dataset_utils:  # scaffolding: stands in for the imported module
  calc_correction = staticmethod(calc_correction)


n_cases = main()  # scaffolding
_report({"jit(calc_correction)"}, n_cases)
