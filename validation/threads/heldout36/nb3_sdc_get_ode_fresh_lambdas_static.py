# source: https://github.com/VLSF/SDC_notebooks/blob/b4cb98fad27ed6fe460083a94708edaa462d7592/integrators/ODEs%20and%20integrators.ipynb
# expect: changing-static at line 264
# runtime: COMPILES 8 CALLS 8
# why: equations.get_ODE is called again inside the integrator loop and returns fresh lambdas, which are passed as the static F of utils.residual, so residual recompiles on every call although only four distinct equations are checked.

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
# --- inlined from VLSF/SDC@247ec2d: misc/Chebyshev.py (grid and transforms), misc/utils.py (residual, integrator, corrector) ---
import jax.numpy as jnp
from jax import jit, config, random
from functools import partial
from jax.lax import scan
config.update("jax_enable_x64", True)

def Chebyshev_grid(n):
    # Chebyshev grid (second kind)
    return jnp.array(jnp.cos(jnp.arange(n, dtype='int64')*jnp.pi/(n-1))[::-1], dtype='float64')

@jit
def values_to_coefficients(values):
    '''
    Input array has shape `(c, n1, n2, ...)`, where c stands for channels.
    Transform values of the function on the Chebyshev grid to coefficients of Chebyshev series.
    '''
    flip = (-1)**jnp.arange(max(values.shape[1:]), dtype=int)
    for N in values.shape[1:][::-1]:
        values = jnp.real(jnp.fft.rfft(jnp.pad(values, [(0, 0)]*(values.ndim-1) + [(0, N-2)], mode="reflect"), axis=-1))
        values = values.at[..., 0].set(values[..., 0]/2).at[..., -1].set(values[..., -1]/2) / (N-1)
        values = values*flip[:N].reshape([1]*(values.ndim-1) + [-1])
        values = jnp.moveaxis(values, -1, 0)
    values = jnp.moveaxis(values, -1, 0)
    return values

@jit
def coefficients_to_values(coefficients):
    '''
    x = coefficients_to_values(values_to_coefficients(x)) up to round-off error
    '''
    flip = (-1)**jnp.arange(max(coefficients.shape[1:]), dtype=int)
    for N in coefficients.shape[1:][::-1]:
        coefficients = coefficients*flip[:N].reshape([1]*(coefficients.ndim-1) + [-1]) / 2
        coefficients = coefficients.at[..., 0].set(coefficients[..., 0]*2).at[..., -1].set(coefficients[..., -1]*2)
        coefficients = jnp.real(jnp.fft.rfft(jnp.pad(coefficients, [(0, 0)]*(coefficients.ndim-1) + [(0, N-2)], mode="reflect"), axis=-1))
        coefficients = jnp.moveaxis(coefficients, -1, 0)
    coefficients = jnp.moveaxis(coefficients, -1, 0)
    return coefficients

@partial(jit, static_argnums=1)
def integrate(coeff, axis):
    '''
    find indefinite integral along `axis`
    '''
    n = coeff.shape[axis]
    sh = [-1 if i == axis else 1 for i in range(len(coeff.shape))]
    w_0 = jnp.hstack([jnp.array([1, 1/4]), 1 / jnp.arange(3, n+2) / 2]).reshape(sh)
    w_1 = jnp.hstack([jnp.array([0, 1/4]), - 1 /  jnp.arange(1, n) / 2]).reshape(sh)
    coeff = jnp.pad(coeff, [(0, 1) if i == axis else (0, 0) for i in range(len(coeff.shape))])
    coeff = jnp.roll(w_0*coeff, 1, axis=axis) + jnp.roll(w_1*coeff, -1, axis=axis)
    return coeff

@partial(jit, static_argnums=1)
def residual(u, F, t0, t1):
    t = (t1 - t0)*(Chebyshev_grid(u.shape[1]) + 1) / 2 + t0
    v = F(u, t) * (t1 - t0) / 2
    v = values_to_coefficients(v)
    v = integrate(v, 1)[:, :-1]
    v = coefficients_to_values(v)
    r = jnp.expand_dims(u[:, 0], 1) + v - u - jnp.expand_dims(v[:, 0], 1)
    return r

def get_grid_data(N, t0, t1, implicit=0):
    t = Chebyshev_grid(N)
    h = (jnp.roll(t, -1) - t)[:-1]
    t = (t1 - t0)*(t + 1) / 2 + t0
    data = jnp.stack([h, jnp.roll(t, -implicit)[:-1]], 1)
    return data

@partial(jit, static_argnums=[1, 2, 5, ])
def integrator(u0, F, N, t0, t1, integration_step, implicit=0):
    u = jnp.zeros((N, u0.shape[0]))
    u = u.at[0].set(u0)
    grid_data = get_grid_data(N, t0, t1, implicit=implicit)
    s = (t1 - t0) / 2

    def integration_step_(u, grid_data):
        u = integration_step(u, F, grid_data[0], grid_data[1], s=s)
        return u, u

    carry, v = scan(integration_step_, u0, grid_data)
    v = jnp.transpose(jnp.vstack([u0, v]), [1, 0])
    return v

def get_grid_data_corrector(delta, v, t0, t1, implicit=0):
    t = Chebyshev_grid(v.shape[1])
    h = (jnp.roll(t, -1) - t)[:-1]
    t = (t1 - t0)*(t + 1) / 2 + t0
    data = jnp.stack([h, jnp.roll(t, -implicit)[:-1]], 1)
    data = jnp.hstack([data, (jnp.roll(delta, -1, axis=1) - delta)[:, :-1].T, jnp.roll(v, -implicit, axis=1)[:, :-1].T])
    return data

@partial(jit, static_argnums=[2, 5, ])
def corrector(v, delta, F, t0, t1, integration_step, implicit=0):
    u0 = jnp.zeros((v.shape[0],))
    grid_data = get_grid_data_corrector(delta, v, t0, t1, implicit=implicit)
    s = (t1 - t0) / 2

    def integration_step_(u, grid_data):
        u = integration_step(u + grid_data[2:(2+u.shape[0])], grid_data[(2+u.shape[0]):], F, grid_data[0], grid_data[1], s=s)
        return u, u

    carry, v = scan(integration_step_, u0, grid_data)
    v = jnp.transpose(jnp.vstack([u0, v]), [1, 0])
    return v

from types import SimpleNamespace  # scaffolding: module namespaces for the inlined files
utils = SimpleNamespace(residual=residual, integrator=integrator, corrector=corrector)  # scaffolding
Chebyshev = SimpleNamespace(Chebyshev_grid=Chebyshev_grid)  # scaffolding

# --- integrators/RK4.py ---
@partial(jit, static_argnums=[1, ])
def RK4_step(u, F, h, t, s=1):  # (named `RK4` in the module)
    a = s*F(u, t)
    b = s*F(u + a*h/2, t + s*h/2)
    c = s*F(u + b*h/2, t + s*h/2)
    d = s*F(u + c*h, t + s*h)
    u = u + h*(a + 2*b + 2*c + d)/6
    return u

@partial(jit, static_argnums=[1, 2])
def RK4_integrator(u0, F, N, t0, t1):  # (named `integrator` in the module)
    return utils.integrator(u0, F, N, t0, t1, RK4_step)

# --- integrators/Explicit_Euler.py ---
@partial(jit, static_argnums=[1, ])
def Euler(u, F, h, t, s=1):
    return u + s*h*F(u, t)

@partial(jit, static_argnums=[1, 2])
def Euler_integrator(u0, F, N, t0, t1):  # (named `integrator` in the module)
    return utils.integrator(u0, F, N, t0, t1, Euler)

RK4 = SimpleNamespace(integrator=RK4_integrator)  # scaffolding
Explicit_Euler = SimpleNamespace(integrator=Euler_integrator)  # scaffolding

# --- misc/equations.py ---
equations_list = {
  'Van der Pol': 2,
  'exp': 1,
  'Logistic': 1,
  'Harmonic oscillator': 2,
  'Prothero–Robinson': 1,
  'Lorenz': 3
}

def get_ODE(name, *args):
    ODE_data = {}
    if name == 'Van der Pol':
        args = [0.1, ] if len(args) == 0 else args
        F = lambda u, t, epsilon=args[0]: jnp.stack([u[1], (1 - u[1]*u[0]**2)/epsilon - u[0]], 0)

        def inv_dF(u, u_F, t, h, s=1, epsilon=args[0]):
          h_ = h*s
          det = (1 + u[0]**2*h_/epsilon) + h_**2 * (2*u[0]*u[1]/epsilon + 1)
          u0 = ((1 + u[0]**2*h_/epsilon) * u_F[0] + h_ * u_F[1]) / det
          u1 = (u_F[1] - h_*(2*u[0]*u[1]/epsilon + 1) * u_F[0]) / det
          return jnp.stack([u0, u1], 0)

        ODE_data = {"F": F, "inv_dF": inv_dF}

    if name == 'exp':
        args = [1.0, ] if len(args) == 0 else args
        exact = lambda x, l=args[0]: jnp.exp(l*x)
        F = lambda u, t, l=args[0]: u*l
        inv_dF = lambda u, u_F, t, h, s=1,l=args[0]: u_F / (1 - s*h*l)
        ODE_data = {"F": F, "inv_dF": inv_dF, "exact": exact}

    if name == 'Logistic':
        exact = lambda x: 1 / (1 + jnp.exp(-x))
        F = lambda u, t: u * (1 - u)
        inv_dF = lambda u, u_F, t, h, s=1: u_F / (1 - s*h*(1-2*u))
        ODE_data = {"F": F, "inv_dF": inv_dF, "exact": exact}

    if name == 'Harmonic oscillator':
        exact = lambda x: jnp.stack([jnp.cos(2*jnp.pi*x), -2*jnp.pi*jnp.sin(2*jnp.pi*x)], 0)
        A = jnp.array([[0, 1], [-(2*jnp.pi)**2, 0]])
        F = lambda u, t, A=A: A @ u
        inv_dF = lambda u, u_F, t, h, s=1, A=A: jnp.linalg.inv(jnp.eye(2) - s*h*A) @ u_F
        ODE_data = {"F": F, "inv_dF": inv_dF, "exact": exact}

    if name == 'Prothero–Robinson':
        args = [1.0, ] if len(args) == 0 else args
        exact = lambda x: jnp.expand_dims(jnp.sin(x), 0)
        F = lambda u, t, delta=args[0]: jnp.stack([jnp.cos(t) - delta*(u[0] - jnp.sin(t)),], 0)
        inv_dF = lambda u, u_F, t, h, s=1, delta=args[0]: u_F / (1 + s*h*delta)
        ODE_data = {"F": F, "inv_dF": inv_dF, "exact": exact}

    if name == 'Lorenz':
        args = [10, 8/3, 28] if len(args) < 3 else args
        def F(u, t, sigma=args[0], beta=args[1], rho=args[2]):
            return jnp.stack([sigma*(u[1]-u[0]), u[0]*(rho-u[2])-u[1], u[0]*u[1]-beta*u[2]], 0)

        def inv_dF(u, u_F, t, h, s=1, sigma=args[0], beta=args[1], rho=args[2]):
            h_ = h*s
            A = jnp.array([
                [1 + h_*sigma, -h_*sigma, 0],
                [h_*(u[2]-rho), 1 + h_, u[0]*h_],
                [-u[1]*h_, -u[0]*h_, 1 + beta*h_]
            ])
            return jnp.linalg.solve(A, u_F)
        ODE_data = {"F": F, "inv_dF": inv_dF}

    return ODE_data
equations = SimpleNamespace(equations_list=equations_list, get_ODE=get_ODE)  # scaffolding

# --- notebook integrators/ODEs and integrators.ipynb ---
# cell 4
N_points = 100
t0, t1 = 0.0, 1/2
t = (t1 - t0) * (Chebyshev.Chebyshev_grid(N_points) + 1)/2 + t0

integrators = {
    "RK4": RK4.integrator,
    "Explicit Euler": Explicit_Euler.integrator,
}  # (the two implicit-Euler integrators are cut: they need the Newton solver of integrators/Implicit_Euler.py)

_calls = 0  # scaffolding
for integrator in integrators:
    print(integrator)
    for equation in equations.equations_list:
        equation_data = equations.get_ODE(equation)
        if "exact" in equation_data:
            exact = equation_data["exact"]
            F = equation_data["F"]
            inv_dF = equation_data["inv_dF"]

            exact_solution = exact(t)
            exact_solution = jnp.expand_dims(exact_solution, 0) if exact_solution.ndim == 1 else exact_solution
            u0 = exact_solution[:, 0]

            values = integrators[integrator](u0, F, N_points, t0, t1)

            error = jnp.linalg.norm(jnp.ravel(values - exact_solution), ord=jnp.inf)
            res = jnp.linalg.norm(jnp.ravel(utils.residual(values, F, t0, t1)), ord=jnp.inf)
            _calls += 1  # scaffolding

            print(equation)
            print("\terror ", error)
            print("\tresidual ", res)

        else:
            pass
    print("\n")
_report({"jit(residual)"}, _calls)  # scaffolding
