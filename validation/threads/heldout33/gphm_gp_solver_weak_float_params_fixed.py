# source: https://github.com/xuangu-fang/Gaussian-Process-Slover-for-High-Freq-PDE/blob/6b978f1b31d2e41dc17d0e9f27532a2fe28edf53/code/model_GP_solver_1d.py
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: With log_tau and log_v initialised as strongly typed zero-d arrays (jnp.zeros(())), params and Adam state keep one type signature and the jitted step compiles once.

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


import numpy as np
import optax
import jax
import jax.numpy as jnp
from jax import grad, jit, vmap
from functools import partial
import tqdm

jax.config.update("jax_enable_x64", True)  # scaffolding: was `from jax.config import config; config.update(...)` in kernel_matrix.py

'''kernel matrix class for 1d GP '''


class Kernel_matrix(object):

    def __init__(self, jitter, K_u,):

        self.jitter = jitter

        # kernel function, should be a Kernel_1d instance
        self.K_u = K_u

    @partial(jit, static_argnums=(0,))
    def get_kernel_matrix(self, X1, X2, paras,):

        N = int((X1.size)**0.5)  # N^2 rows

        K_u_u = vmap(self.K_u.kappa, (0, 0, None))(
            X1.flatten(), X2.flatten(), paras).reshape(N, N)
        Kmat = K_u_u + self.jitter * jnp.eye(N)

        return Kmat


'''base kernel class for 1d'''


class Kernel_1d(object):

    def __init__(self, fix_dict=None, fix_paras=None):
        self.fix_dict = fix_dict
        self.fix_paras = fix_paras

    def kappa(self, x1, y1, paras):
        '''empty kernel, rasie error'''
        raise NotImplementedError

    @partial(jit, static_argnums=(0, ))
    def DD_x1_kappa(self, x1, y1, paras):  # cov(f''(x1), f(y1))
        val = grad(grad(self.kappa, 0), 0)(x1, y1, paras)
        return val


class SE_Cos_1d(Kernel_1d):
    '''standard Specture Mixsure kernal:
      weight x SE kernel x cosine kernel'''

    def __init__(self, fix_dict=None, fix_paras=None):
        super().__init__(fix_dict, fix_paras)

    @partial(jit, static_argnums=(0, ))
    def kappa(self, x1, y1, paras):

        log_w = paras['log-w']
        log_ls = paras['log-ls']
        freq = paras['freq']

        d = jnp.abs(x1 - y1)

        SE = jnp.exp(-d**2 * jnp.exp(log_ls))
        cosine = jnp.cos(2 * jnp.pi * d * freq)

        return (jnp.exp(log_w) * SE * cosine).sum()


class GP_solver_1d_single(object):

    def __init__(self,
                 Xind,
                 y,
                 X_col,
                 src_col,
                 jitter,
                 X_test,
                 Y_test,
                 trick_paras=None,
                 fix_dict=None):
        self.Xind = Xind
        self.y = y
        self.X_col = X_col
        self.src_col = src_col
        self.jitter = jitter
        # X is the 1st and the last point in X_col
        self.X_con = X_col
        self.N = self.Xind.shape[0]
        self.N_con = self.X_con.shape[0]

        self.trick_paras = trick_paras

        self.optimizer = optax.adam(learning_rate=trick_paras['lr'])

        self.llk_weight = trick_paras['llk_weight']

        self.cov_func = trick_paras['kernel']()

        self.kernel_matrix = Kernel_matrix(self.jitter, self.cov_func)

        self.Xte = X_test
        self.yte = Y_test

        self.params = None  # to be assugned after training the mixture-GP
        self.pred_func = None  # to be assugned when starting prediction

        self.eq_type = trick_paras['equation'].split('-')[0]
        assert self.eq_type in ['poisson_1d', 'allencahn_1d']

    @partial(jit, static_argnums=(0, ))
    def value_and_grad_kernel(self, params, key):
        '''compute the value of the kernel matrix, along with Kinv_u and u_xx'''

        u = params['u']  # function values at the collocation points
        kernel_paras = params['kernel_paras']
        x_p = jnp.tile(self.X_con.flatten(), (self.N_con, 1)).T
        X1_p = x_p.flatten()
        X2_p = jnp.transpose(x_p).flatten()
        # only the cov matrix of func vals
        K = self.kernel_matrix.get_kernel_matrix(X1_p, X2_p, kernel_paras)

        Kinv_u = jnp.linalg.solve(K, u)

        K_dxx1 = vmap(self.cov_func.DD_x1_kappa,
                      (0, 0, None))(X1_p, X2_p, kernel_paras).reshape(
                          self.N_con, self.N_con)
        u_xx = jnp.matmul(K_dxx1, Kinv_u)

        return K, Kinv_u, u_xx

    @partial(jit, static_argnums=(0, ))
    def boundary_and_eq_gap(self, u, u_xx):
        """compute the boundary and equation gap, to construct the training loss or computing the early stopping criteria"""
        # boundary
        boundary_gap = jnp.sum(jnp.square(u[self.Xind].reshape(-1) -
                                          self.y.reshape(-1)))
        # equation
        if self.eq_type == 'poisson_1d':

            eq_gap = jnp.sum(jnp.square(
                u_xx.flatten() - self.src_col.flatten()))

        elif self.eq_type == 'allencahn_1d':

            eq_gap = jnp.sum(jnp.square(u_xx.flatten() +
                             (u*(u**2-1)).flatten() - self.src_col.flatten()))

        else:
            raise NotImplementedError

        return boundary_gap, eq_gap

    @partial(jit, static_argnums=(0, ))
    def loss(self, params, key):
        '''compute the loss function'''
        u = params['u']  # function values at the collocation points
        log_tau = params['log_tau']
        log_v = params['log_v']

        K, Kinv_u, u_xx = self.value_and_grad_kernel(params, key)

        boundary_gap, eq_gap = self.boundary_and_eq_gap(u, u_xx)

        # prior
        log_prior = -0.5 * \
            jnp.linalg.slogdet(
                K)[1]*self.trick_paras['logdet'] - 0.5*jnp.sum(u*Kinv_u)

        # boundary
        log_boundary_ll = 0.5 * self.N * log_tau - 0.5 * \
            jnp.exp(
                log_tau) * boundary_gap
        # equation

        eq_ll = 0.5 * self.N_con * log_v - 0.5 * \
            jnp.exp(log_v) * eq_gap

        log_joint = log_prior + log_boundary_ll * self.llk_weight + eq_ll
        return -log_joint

    @partial(jit, static_argnums=(0, ))
    def step(self, params, opt_state, key):
        # loss = self.loss(params, key)
        loss, d_params = jax.value_and_grad(self.loss)(params, key)
        updates, opt_state = self.optimizer.update(d_params, opt_state, params)

        params = optax.apply_updates(params, updates)
        return params, opt_state, loss

    def train(self, nepoch, seed=0):
        key = jax.random.PRNGKey(109)
        Q = self.trick_paras['Q']  # number of basis functions

        freq_scale = self.trick_paras['freq_scale']

        params = {
            "log_tau": jnp.zeros(()),  # inv var for data ll  (fix: strongly typed f64 scalar)
            "log_v": jnp.zeros(()),  # inv var for eq likelihood  (fix: strongly typed f64 scalar)
            "kernel_paras": {
                'log-w': np.log(1 / Q) * np.ones(Q),
                'log-ls': np.zeros(Q),
                'freq': np.linspace(0, 1, Q) * freq_scale,
            },
            # u value on the collocation points
            "u": np.zeros((self.N_con, 1))
        }

        opt_state = self.optimizer.init(params)

        # scaffolding: evaluation/early-stopping bookkeeping of the loop cut
        for i in tqdm.tqdm(range(nepoch), disable=True):  # scaffolding: disable=True

            key, sub_key = jax.random.split(key)

            params, opt_state, loss = self.step(params, opt_state, sub_key)

        self.params = params
        return params


# scaffolding: the test() driver for 'poisson_1d-single_sin' with a small collocation grid
u = lambda x: jnp.sin(100 * x)
trick_paras = {'lr': 1e-2, 'llk_weight': 200.0, 'kernel': SE_Cos_1d, 'equation': 'poisson_1d-single_sin',
               'logdet': True, 'Q': 5, 'freq_scale': 20, 'nepoch': 6}
N_col = 40
X_col = np.linspace(0, 1, num=N_col).reshape(-1, 1)
X_test = np.linspace(0, 1, num=50).reshape(-1, 1)
Y_test = u(X_test)
Xind = np.array([0, X_col.shape[0] - 1])
y = jnp.array([u(X_col[Xind[0]]), u(X_col[Xind[1]])]).reshape(-1)
src_vals = vmap(grad(grad(u, 0), 0), (0))(X_col.reshape(-1))
model_PIGP = GP_solver_1d_single(Xind, y, X_col, src_vals, 1e-6, X_test, Y_test, trick_paras,)
model_PIGP.train(trick_paras['nepoch'], 0)
_report({"jit(step)"}, trick_paras['nepoch'])  # scaffolding
