# source: https://github.com/rbklein/SPADES/blob/231298ff5454760416830c777e6740a46b5aac8c/main_FOM.py
# expect: none
# runtime: COMPILES 1 CALLS 30
# why: The shallow-water time loop calls the jitted RK4 step with the jitted module-level FOM.dudt as a static argument every step, and the jitted kernels read module-level constants (dt, num_cells, TOPOGRAPHY) that never change; RK4 compiles once.

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
# --- rbklein/SPADES@231298f, main_FOM.py with its modules inlined in import order ---
from functools import partial
# --- config_discretization.py ---
"""
    Configure discretization options and parameters

    Discretization details:
        - Cell-centered finite volume method
        - Boundary conditions are implemented via ghost cells
        - Non-flat bottom topography can be included

"""

import jax

#Datatypes
set_DTYPE = "DOUBLE"

match set_DTYPE:
    case "DOUBLE":
        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        DTYPE = jnp.float64
    case "SINGLE":
        import jax.numpy as jnp
        DTYPE = jnp.float32


#Gravity coefficient
g           = 9.81

#Mesh [-length,length]
length      = 10
num_cells   = 300  # scaffolding: 3000 in the repo
dx          = 2 * length / num_cells
x           = jnp.linspace(-length + 0.5 * dx, length - 0.5 * dx, num_cells, dtype = DTYPE)

#Temporal
time_final  = 0.125
num_steps   = 20000
dt          = time_final / num_steps

#Boundary
#padding width necessary for implementing boundary conditions
pad_width_flux          = 1
pad_width_diss          = 2
pad_width_source        = 1

num_ghost_cells_flux    = 2 * pad_width_flux + num_cells
num_ghost_cells_diss    = 2 * pad_width_diss + num_cells

#Initial conditions
HEIGHT_IS_FREE_SURFACE = True
initial_condition_params = (20.0, 15.0, 0.0, 0.0) # (2.0, 1.0, 0.0, 0.0) #

#Bottom topography
topography_params = () # (0.5, 1) # (8.0, 1500 / 4)

#Numerics
TEST_CASE   = "POSITIVITY_RIEMANN"
FLUX        = "FJORDHOLM"
LIMITER     = "MINMOD"
DISSIPATION = "TECNO_ROE"
INTEGRATOR  = "RK4"
BOUNDARY    = "TRANSMISSIVE"
SOURCE      = "FJORDHOLM"
TOPOGRAPHY  = "FLAT"

#data
sample_rate = 10# --- computational.py (helpers used by the FOM) ---
@jax.jit
def arith_mean(quantity):
    """
        Computes arithmetic mean of quantity

        The mean is taken between as many cells as possible without exceeding array dimensions
    """

    return 0.5 * (quantity[1:] + quantity[:-1])

@jax.jit
def jump_vec(quantity):
    """
        Compute jump in vector-valued quantity on grid

        Computes as many jumps as possible given the quantity

        indices:
            quantity: 0 row index, 1 grid index
    """
    return quantity[:,1:] - quantity[:,:-1]

@jax.jit
def jump(quantity):
    """
        compute jump in scalar-valued quantity on grid
    """
    return quantity[1:] - quantity[:-1]

@jax.jit
def mul(A,v):
    """
        Computes matrix vector product at each node of the grid

        numpy matmul docs: 'If either argument is N-Dimensional, N > 2, it is treated as a stack of matrices residing in the last two indexes and broadcast accordingly.'

        indices:
            A: 0 row index, 1 column index, 2 grid index
            v: 0 vector component, 1 grid index + (a dummy index to enable use of jnp.matmul)
    """
    return jnp.matmul(A.transpose((2,0,1)), v[:,:,None].transpose((1,0,2)))[:,:,0].transpose()

# --- testsuite.py ---
"""
    A testsuite containing initial conditions for different test cases
"""


def return_case(test_case):
    """
        Returns initial conditions for test case given by test_case
    """
    match test_case:
        case "DAM_BREAK":
            initial_h = lambda x, h, params = (): jnp.where(jnp.abs(x) < 0.2, 1.5, 1) - HEIGHT_IS_FREE_SURFACE * h(x,topography_params)
            initial_hu = lambda x, h, params = (): x * 0.0
        case "DROP":
            initial_h = lambda x, h, params = (): 0.1 * jnp.exp(-100 * x**2) + 1.0 - HEIGHT_IS_FREE_SURFACE * h(x,topography_params)
            initial_hu = lambda x, h, params = (): x * 0
        case "RIEMANN":
            initial_h = lambda x, h, params: jnp.where(x < 0, params[0], params[1]) - HEIGHT_IS_FREE_SURFACE * h(x,topography_params)
            initial_hu = lambda x, h, params: jnp.where(x < 0, params[2], params[3]) * initial_h(x, h, params)
        case "ENTROPY_RIEMANN":
            initial_h = lambda x, h, params = (): jnp.where(jnp.abs(x) < 12.5, 1.5, 0.02) - HEIGHT_IS_FREE_SURFACE * h(x,topography_params)
            initial_hu = lambda x, h, params = (): x * 0.0
        case "POSITIVITY_RIEMANN":
            initial_h = lambda x, h, params = (): 5 + 0 * x - HEIGHT_IS_FREE_SURFACE * h(x,topography_params)
            initial_hu = lambda x, h, params = (): jnp.where(x < 0.0, -35.0, 35.0) * initial_h(x, h, params)

    return initial_h, initial_hu
# --- flux.py ---
"""
    Contains functions to compute entropy conservative numerical fluxes

    The numerical flux functions assume the solution u to be padded
"""



#shift value for jnp.roll
shift = -1

@jax.jit
def Fjordholm_flux(u):
    """
        Computes flux of Fjordholm, Mishra and Tadmor from "Energy preserving and energy stable schemes
        for the shallow water equations"

        u is assumed padded
    """
    h_mean      = arith_mean(u[0])
    vel         = u[1] / u[0]
    vel_mean    = arith_mean(vel)

    h_squared_mean = arith_mean(u[0]**2)

    F1 = h_mean * vel_mean
    F2 = h_mean * vel_mean**2 + g/2 * h_squared_mean
    return jnp.array([F1,F2], dtype=DTYPE)


def return_flux(which_flux):
    """
        Returns the specific flux function that will be used for computations

        Options:
            - Fjordholm, Mishra, Tadmor
    """
    match which_flux:
        case "FJORDHOLM":
            """
                The flux by Fjordholm, Mishra and Tadmor
            """
            assert(pad_width_flux == 1)
            flux = Fjordholm_flux

    return flux
# --- entropy.py ---
"""
    Contains functions related to the PDE entropy of the shallow water equations
"""


@jax.jit
def entropy_(u):  # (named `entropy` in the module)
    """
        Computes the PDE entropy of the shallow water equations
    """
    return 0.5 * (u[1]**2 / u[0] + g * u[0]**2)

@jax.jit
def entropy_variables(u):
    """
        Computes the entropy variables from the conserved variables of the shallow water equations
    """
    eta1 = g * u[0] - 0.5 * (u[1] / u[0])**2
    eta2 = u[1] / u[0]
    return jnp.array([eta1, eta2], dtype=DTYPE)

@jax.jit
def conservative_variables(eta):
    """
        Computes the conservative variables from the entropy variables
    """
    u1 = (2 * eta[0] + eta[1]**2) / (2 * g)
    u2 = u1 * eta[1]
    return jnp.array([u1, u2], dtype=DTYPE)
# --- dissipation.py ---
"""
    Contains function to compute entropy dissipation operators to use with entropy conservative fluxes for the shallow water equations

    The dissipation operators assume the solution u to be padded
"""




@jax.jit
def minmod(delta1, delta2):
    """
        Computes minmod limiter values

        Suitable for vector-valued inputes
    """
    delta3 = jnp.where(jnp.abs(delta2) > 0, delta2, 1e-14)
    ratio_delta = delta1 / delta3
    phi = jnp.where(ratio_delta < 0, 0, ratio_delta)
    return jnp.where(phi < 1, phi, 1)

    #theta = discrete_gradient.zero_by_zero(delta1, delta2)
    #phi = jnp.where(theta < 0., 0., jnp.where(theta > 1, 1, theta))
    #return phi

def return_limiter(which_limiter):
    """
        Returns the specific limiter function that will be used for computations of the entropy dissipation operator

        Options:
            - Minmod
    """
    match which_limiter:
        case "MINMOD":
            """
                The minmod limiter
            """
            limiter = minmod

    return limiter

@partial(jax.jit, static_argnums = 1)
def first_order(u, limiter):
    """
        Computes a first-order accuracte entropy dissipation operator

        To be implemented
    """
    pass


@partial(jax.jit, static_argnums = 1)
def Roe_dissipation(u, limiter):
    """
        Computes second-order Roe entropy dissipation operator from the paper of Fjordholm, Mishra and Tadmor from "Arbitrarily High-order
        Accurate Entropy Stable Essentially Nonoscillatory Schemes for Systems of Conservation Laws" using limiter

        Assumes u is padded with boundary values
    """

    #number of cell interfaces that are not on the boundary of the grid (including ghost cells)
    num_inner_cell_interfaces = num_ghost_cells_diss - 1

    h_mean      = arith_mean(u[0])
    hu_mean     = arith_mean(u[1])
    vel_mean    = hu_mean / h_mean
    vel_char    = jnp.sqrt(g * h_mean)

    eta         = entropy_variables(u)
    eta_jump    = jump_vec(eta)

    #compute eigenvector at mean state between all inner interfaces
    R = jnp.ones((2,2,num_inner_cell_interfaces))
    R = R.at[1,0,:].set(vel_mean - vel_char); R = R.at[1,1,:].set(vel_mean + vel_char)

    #compute eigenvalue matrices at mean state between all inner interfaces
    D = jnp.zeros((2,2,num_inner_cell_interfaces))
    D = D.at[0,0,:].set(jnp.abs(vel_mean - vel_char)); D = D.at[1,1,:].set(jnp.abs(vel_mean + vel_char))

    #compute inner product of entropy variable jump and eigenvector basis
    delta = mul(R.transpose(1,0,2), eta_jump)

    delta_L = delta[:,:num_cells+1]
    delta_C = delta[:,1:num_cells+2]
    delta_R = delta[:,2:]

    limiter_mean = 0.5 * (limiter(delta_L, delta_C) + limiter(delta_R, delta_C))

    #compute scaling coefficient eigenvalues
    S = jnp.zeros((2,2,num_cells + 1))
    S = S.at[0,0,:].set(1 - limiter_mean[0,:]); S = S.at[1,1,:].set(1 - limiter_mean[1,:])

    return -mul(R[:,:,1:num_cells+2], mul(D[:,:,1:num_cells+2], mul(S, delta[:,1:num_cells+2]))) * 1/2

def return_dissipation(which_dissipation):
    """
        Returns the specific dissipation operator that will be used for computations of entropy stable numerical fluxes

        Options:
            - Roe dissipation
            - Laplacian (not implemented)
            - No dissipation
    """
    match which_dissipation:
        case "TECNO_ROE":
            """
                Roe-based dissipation operator from the TeCNO class schemes
            """
            assert(pad_width_diss == 2)
            dissipation = Roe_dissipation
        case "LAPLACIAN":
            """
                Simple Laplacian dissipation
            """
            raise NotImplementedError("Laplacian dissipation has not been implemented yet")
        case "NONE":
            """
                No dissipation
            """
            assert(pad_width_diss == 1)
            dissipation = lambda u, lim: 0.0 * u

    return dissipation
# --- topography.py ---
"""
    Implements functions for bottom topographies

    Assumes non-time-dependent topographies
"""




def flat_topography(x, params):
    """
        Return the flat topography
    """
    return x * 0.0

def thacker_topography(x, params):
    """
        Return the bottom topography of Thacker's test case see "Swashes: a compilation of shallow water analytic solutions for hydraulic and
        environmental studies"
    """
    h_0, a = params
    return h_0 * ((x/a)**2 - 1)

def rectangular_bump_topography(x, params):
    """
        Return a rectangular bump
    """
    bump_height, bump_width = params
    return jnp.where(jnp.abs(x) < bump_width / 2, bump_height, 0)

def alessia_topography(x, params):
    """
        Return Alessia's non-zero topography

        note: can be parameterized
    """
    x_off = x + 750
    h = 0.0 * x
    h = h + jnp.where((x_off <= 562.5)*(x_off > 487.5), 4*jnp.exp(2 - 150 / (x_off - 487.5)), 0)
    h = h + jnp.where((x_off <= 637.5)*(x_off > 562.5), 8 - 4*jnp.exp(2 - 150 / (637.5 - x_off)), 0)
    h = h + jnp.where((x_off <= 862.5)*(x_off > 637.5), 8, 0)
    h = h + jnp.where((x_off <= 937.5)*(x_off > 862.5), 8 - 4*jnp.exp(2 - 150 / (x_off - 862.5)), 0)
    h = h + jnp.where((x_off <= 1012.5)*(x_off > 937.5), 4*jnp.exp(2 - 150 / (1012.5 - x_off)), 0)
    return h

def return_topography(which_topography):
    """
        Returns the specific topography vector that will be used for computations

        Options:
            - Flat
            - Thacker
            - Rectangular bump
    """
    match which_topography:
        case "FLAT":
            """
                A flat topography
            """
            topography = flat_topography
        case "THACKER":
            """
                Thacker's topography
            """
            topography = thacker_topography
        case "RECTANGULAR_BUMP":
            """
                A rectangular bump
            """
            topography = rectangular_bump_topography
        case "ALESSIA":
            """
                Alessia's non-zero topography
            """
            topography = alessia_topography

    return topography

@jax.jit
def Fjordholm_source(u, b):
    """
        Computes the source term using the entropy conservative scheme of Fjordholm, Mishra and Tadmor see "Well-balanced and
        energy stable schemes for the shallow water equations with discontinuous topography"

        Assumes u, b are padded appropriately
    """
    if TOPOGRAPHY == "FLAT":
        return jnp.zeros((2,num_cells), dtype=DTYPE)

    b_jump          = jump(b)
    h_mean          = arith_mean(u[0])
    h_b_jump_mean   = arith_mean(h_mean * b_jump)

    S1 = jnp.zeros(num_cells, dtype=DTYPE)
    S2 = - g / dx * h_b_jump_mean

    return jnp.array([S1, S2], dtype=DTYPE)

def return_source(which_source):
    """
        Returns the specific source discretization functiuon that will be used for computations

        Options:
            - Fjordholm, Mishra, Tadmor
    """
    match which_source:
        case "FJORDHOLM":
            """
                The source of Fjordholm, Mishra and Tadmor
            """
            assert(pad_width_source == 1)
            source = Fjordholm_source

    return source




# --- boundary.py (the __main__ demo cut) ---
"""
    Implements boundary conditions
"""



pad_system = jax.vmap(jnp.pad, (0, None, None), 0)
pad_system.__doc__ = "pads axis 1 of 2D array by specified width and using specified mode"

@partial(jax.jit, static_argnums = 1)
def periodic_pad(u, pad_width):
    """
        Implements periodic ghost cells with a width given by pad_width
    """
    u_pad = pad_system(u, pad_width, "wrap")
    return u_pad

@partial(jax.jit, static_argnums = 1)
def transmissive_pad(u, pad_width):
    """
        Toro's transmissive condition eq. 14.6 in "Riemann Solvers and Numerical Methods for Fluid Dynamics"
    """
    u_pad = pad_system(u, pad_width, "symmetric")
    return u_pad

def return_padder(which_boundary):
    """
        Returns the specific solution value padding function that will be used for computations

        Options:
            - Periodic
            - Transmissive
    """
    match which_boundary:
        case "PERIODIC":
            """
                Pad periodically
            """
            padder = periodic_pad
        case "TRANSMISSIVE":
            """
                Pad with Toro's transmissive boundary conditions eq. 14.6 in "Riemann Solvers and Numerical Methods for Fluid Dynamics"
            """
            padder = transmissive_pad

    return padder


# --- integration.py (RK4 only; Tadmor_midpoint needs minimization.py and is cut) ---
@partial(jax.jit, static_argnums = 1)
def RK4(u, dudt):
    """
        The classical 4-th order Runge-Kutta time integrator
    """
    k1 = dudt(u)
    k2 = dudt(u + k1 * dt / 2)
    k3 = dudt(u + k2 * dt / 2)
    k4 = dudt(u + k3 * dt)
    return u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)

def return_integrator(which_integrator):  # (docstring and the TADMOR case cut)
    match which_integrator:
        case "RK4":
            """
                The classical 4-th order Runge-Kutta time integrator
            """
            integrator = RK4

    return integrator
# --- setup.py ---

"""
    Compute initial conditions and specify functions based on configurations

    variables:
        - h:    water column height
        - hu:   discharge
"""



initial_h, initial_hu = return_case(TEST_CASE)

f_cons      = return_flux(FLUX)
f_diss      = return_dissipation(DISSIPATION)
f_source    = return_source(SOURCE)
lim         = return_limiter(LIMITER)
step        = return_integrator(INTEGRATOR)
padder      = return_padder(BOUNDARY)
topo        = return_topography(TOPOGRAPHY)


b               = topo(padder(x[None,:], pad_width_source)[0,:], topography_params)
h_topography    = topo(x, topography_params)

h_0     = initial_h(x, topo, initial_condition_params)
hu_0    = initial_hu(x, topo, initial_condition_params)

u_0     = jnp.array([h_0, hu_0], dtype=DTYPE)

# --- FOM.py ---
"""
    Combines all element of the spatial discretization i.e.:
        - entropy conservative flux
        - entropy dissipation operator
        - entropy dissipation limiter
"""


@jax.jit
def dudt(u):
    """
        Returns the ODEs corresponding to the semi-discrete shallow water equations using the specified
        entropy conservative flux, entropy dissipation operator and limiter
    """
    F = f_cons(padder(u,pad_width_flux))
    D = f_diss(padder(u,pad_width_diss), lim)
    S = f_source(padder(u,pad_width_source), b)
    return - ((F[:,1:] - F[:,:-1]) + (D[:,1:] - D[:,:-1])) / dx + S

# --- data.py ---
"""
    Function to handle data
"""


def prepare_data():
    """
        return data array of size consistent with sample_rate and num_steps
    """
    arr = jnp.arange(0, num_steps+1, sample_rate)
    data = jnp.zeros((2, num_cells, len(arr)))
    return data

#@jax.jit
def gather_data(data, u, index):
    """
        Gather data in predefined data array at index
    """
    if index % sample_rate == 0:
        data = data.at[:,:,index//sample_rate].set(u)
    return data
from types import SimpleNamespace  # scaffolding: module namespaces for the inlined files
FOM = SimpleNamespace(dudt=dudt)  # scaffolding
data = SimpleNamespace(prepare_data=prepare_data, gather_data=gather_data)  # scaffolding

# --- main_FOM.py (plots cut) ---
u = jnp.copy(u_0)

snapshots = data.prepare_data()
snapshots = data.gather_data(snapshots, u, 0)

time_index = 0
while time_index < 30:  # scaffolding: num_steps (20000) in the repo
    u = step(u, FOM.dudt)

    time_index += 1
    print(time_index * dt)

    snapshots = data.gather_data(snapshots, u, time_index)

print(snapshots.shape)
_report({"jit(RK4)"}, time_index)  # scaffolding
