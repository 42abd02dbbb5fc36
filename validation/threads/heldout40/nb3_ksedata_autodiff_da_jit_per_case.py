# source: https://github.com/noah1235/KSE_DA/blob/61ea6f0df41367e9a1f16cca780537e1102eb452/control.py
# expect: jit-in-loop-or-body at line 350
# runtime: COMPILES 3 CALLS 3
# why: Run_DA_Cases builds a new jax.jit(KS_RK4(...)) solver and calls Autodiff_DA for every repeat of a case, which defines a fresh @jax.jit objective closing over that solver and the case's loss object and wraps it in a new jax.jit(jax.value_and_grad(objective)), so the same-shaped data-assimilation gradient is recompiled for every repeat.

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
# control.py (Run_DA_Cases, autodiff + ADAM path only), Source_Code/KS_Integrators.py (forward-Euler and
# ETD2 classes cut), Source_Code/Auto_Diff_DA.py and MSE_Data_Loss / grad_descent of Source_Code/DA_Utils.py
# of noah1235/KSE_DA at 61ea6f0; file output, plots, the adjoint and hybrid Newton paths are cut.
import numpy as np
import optax
import jax
import jax.numpy as jnp

def run_solver(solver, u_0, time_steps):
    u_0 = u_0.astype(jnp.float64)
    def step_fn(u_current, _):
        u_next = solver(u_current)
        return u_next, u_next
    u_trajectory = jax.lax.scan(step_fn, u_0, None, length=time_steps)[1]

    u_trajectory = jnp.concatenate([jnp.expand_dims(u_0, 0), u_trajectory], axis=0)

    return u_trajectory


class KS_Integrator:
    def __init__(self, L, N, dt,use_double_precision, Euler_term_taylor_cutoff=0.0001):
        self.L = L
        self.N = N
        self.dt = dt
        self.dx = L / N
        
        if use_double_precision:
            self.real_dtype = jnp.float64
            self.complex_dtype = jnp.complex128
        else:
            self.real_dtype = jnp.float32
            self.complex_dtype = jnp.complex64


        wavenumbers = jnp.fft.rfftfreq(N, d=L / (N * 2 * jnp.pi)).astype(self.real_dtype)
        self.wavenumbers = wavenumbers
        self.derivative_operator = (1j * wavenumbers).astype(self.complex_dtype)

        self.linear_operator = (-self.derivative_operator**2 - self.derivative_operator**4).astype(self.complex_dtype)
        self.h_terms, self.c_terms = self.Pre_Compute_Taylor_Terms(dt, self.linear_operator)
   
        self.exp_term = jnp.exp(self.linear_operator * dt).astype(self.complex_dtype)
        Euler_coef_exact = (jnp.expm1(self.linear_operator * dt) / self.linear_operator).astype(self.complex_dtype)
        Euler_coef_Taylor = self.Euler_coef_Taylor_approx(self.linear_operator, dt)

        self.Euler_coef = jnp.where(jnp.abs(self.linear_operator * dt) <= Euler_term_taylor_cutoff, 
                                    Euler_coef_Taylor, Euler_coef_exact).astype(self.complex_dtype)

        self.alias_mask = (wavenumbers < 2/3 * jnp.max(wavenumbers)).astype(jnp.bool_)
    

    @staticmethod
    def Pre_Compute_Taylor_Terms(h, c):
        # Precompute powers of h to avoid redundant calculations
        h2 = h**2
        h3 = h**3
        h4 = h**4
        h5 = h**5
        h6 = h**6
        h7 = h**7
        h8 = h**8

        # Precompute powers of c for reuse
        c2 = c**2
        c3 = c**3
        c4 = c**4
        c5 = c**5
        c6 = c**6
        c7 = c**7

        h_terms = (h2, h3, h4, h5, h6, h7, h8)
        c_terms = (c2, c3, c4, c5, c6, c7)

        return h_terms, c_terms

    @staticmethod
    def kahan_sum(terms):
        sum_ = 0.0
        c = 0.0
        for term in terms:
            y = term - c
            t = sum_ + y
            c = (t - sum_) - y
            sum_ = t
        return sum_

    def Euler_coef_Taylor_approx(self, c, h):
        h2, h3, h4, h5, h6, h7, h8 = self.h_terms
        c2, c3, c4, c5, c6, c7 = self.c_terms
        
        Euler_coef_taylor = [
            h,
            c * h2 / 2,
            c2 * h3 / 6,
            c3 * h4 / 24,
            c4 * h5 / 120,
            c5 * h6 / 720,
            c6 * h7 / 5040,
            c7 * h8 / 40320
        ]

        return self.kahan_sum(Euler_coef_taylor).astype(self.complex_dtype)

    def irfft(self, x):
        return jnp.fft.irfft(x, n=self.N).astype(self.real_dtype)
    
    def rfft(self, x):
        return jnp.fft.rfft(x).astype(self.complex_dtype)

    def F_nonlinear_fourier_space(self, U):
        F = (-0.5 * U**2).astype(self.real_dtype)
        F_hat = self.rfft(F)
        F_hat *= self.alias_mask
        F_hat *= self.derivative_operator

        return F_hat

class KS_RK3(KS_Integrator):
    @classmethod
    def __repr__(self) -> str:
        return "RK3"

    def __init__(self, L, N, dt, HOT_term_taylor_cutoff=0.01, use_double_precision=True):
        super().__init__(L, N, dt, use_double_precision)

        hc = (self.dt * self.linear_operator).astype(self.complex_dtype)

        self.exp_term_half_step = jnp.exp(self.linear_operator * (dt / 2)).astype(self.complex_dtype)
        self.Euler_half_step_coef = jnp.where(self.linear_operator == 0.0,dt / 2,
                                    jnp.expm1(self.linear_operator * (dt / 2)) / self.linear_operator).astype(self.complex_dtype)

        
        
        coef1_exact, coef2_exact, coef3_exact = self.compute_exact_coefs(hc, self.linear_operator, self.exp_term)

        coef1_taylor, coef2_taylor, coef3_taylor = self.compute_taylor_approx_coefs(self.linear_operator, self.dt)

        self.coef1 = jnp.where(jnp.abs(self.linear_operator * dt) <= HOT_term_taylor_cutoff, 
                                coef1_taylor, coef1_exact).astype(self.complex_dtype)
        self.coef2 = jnp.where(jnp.abs(self.linear_operator * dt) <= HOT_term_taylor_cutoff, 
                                coef2_taylor, coef2_exact).astype(self.complex_dtype)
        self.coef3 = jnp.where(jnp.abs(self.linear_operator * dt) <= HOT_term_taylor_cutoff, 
                                coef3_taylor, coef3_exact).astype(self.complex_dtype)


    def compute_exact_coefs(self, hc, c, exp_term):
        hc2 = (hc ** 2).astype(self.complex_dtype)
        denom = hc2 * c

        coef1_exact = (-4 - hc + exp_term * (4 - 3 * hc + hc2)) / (denom).astype(self.complex_dtype)
        coef2_exact = (2 + hc + exp_term * (-2 + hc)) / (denom).astype(self.complex_dtype)
        coef3_exact = (-4 - 3 * hc - hc2 + exp_term * (4 - hc)) / (denom).astype(self.complex_dtype)

        return coef1_exact, coef2_exact, coef3_exact

    def compute_taylor_approx_coefs(self, c, h):
        h2, h3, h4, h5, h6, h7, h8 = self.h_terms
        c2, c3, c4, c5, c6, c7 = self.c_terms
        
        #6 Order taylor approx
        coef1_taylor_terms = [
            c7 * h8 / 40320,
            c6 * h7 / 8064,
            c5 * h6 / 1120,
        5 * c4 * h5 / 1008,
            c3 * h4 / 45,
            3 * c2 * h3 / 40,
            c * h2 / 6,
            h / 6
        ]
        
        coef2_taylor_terms = [
            c6 * h7 / 40320,
            c5 * h6 / 6720,
            c4 * h5 / 1008,
            c3 * h4 / 180,
            c2 * h3 / 40,
            c * h2 / 12,
            h / 6
        ]
        
        coef3_taylor_terms = [
            -(c6 * h7 / 40320),
            -(c5 * h6 / 10080)
            -(c4 * h5 / 1680),
            -(c3 * h4 / 360),
            -(c2 * h3 / 120),
            h / 6
        ]

        coef1_taylor = self.kahan_sum(coef1_taylor_terms).astype(self.complex_dtype)
        coef2_taylor = self.kahan_sum(coef2_taylor_terms).astype(self.complex_dtype)
        coef3_taylor = self.kahan_sum(coef3_taylor_terms).astype(self.complex_dtype)

        return coef1_taylor, coef2_taylor, coef3_taylor  

    def __call__(self, U):
        U_n_hat = self.rfft(U)
        F_n_hat = self.F_nonlinear_fourier_space(U)

        linear_half_step_term = U_n_hat * self.exp_term_half_step
        linear_full_step_term = U_n_hat * self.exp_term

        an_hat = linear_half_step_term + self.Euler_half_step_coef * F_n_hat
        an = self.irfft(an_hat)
        F_an_hat = self.F_nonlinear_fourier_space(an)

        bn_hat = linear_full_step_term + self.Euler_coef * (2 * F_an_hat - F_n_hat)
        bn = self.irfft(bn_hat)
        F_bn_hat = self.F_nonlinear_fourier_space(bn)

        nonlin_integration = F_n_hat * self.coef1 + 4*F_an_hat * self.coef2 + F_bn_hat * self.coef3

        U_next_hat = linear_full_step_term + nonlin_integration
        
        U_next = self.irfft(U_next_hat)
        return U_next

class KS_RK4(KS_RK3):
    name = "RK4"

    @classmethod
    def __repr__(self) -> str:
        return "RK4"

    def __init__(self, L, N, dt, use_double_precision=True):
        super().__init__(L, N, dt, use_double_precision)

    def __call__(self, U):
        U_n_hat = self.rfft(U)
        F_n_hat = self.F_nonlinear_fourier_space(U)

        linear_half_step_term = U_n_hat * self.exp_term_half_step
        linear_full_step_term = U_n_hat * self.exp_term

        an_hat = linear_half_step_term + self.Euler_half_step_coef * F_n_hat
        F_an_hat = self.F_nonlinear_fourier_space(self.irfft(an_hat))

        bn_hat = linear_half_step_term + self.Euler_half_step_coef * F_an_hat
        F_bn_hat = self.F_nonlinear_fourier_space(self.irfft(bn_hat))

        cn_hat = linear_half_step_term + self.Euler_half_step_coef * (2*F_bn_hat-F_n_hat)
        F_cn_hat = self.F_nonlinear_fourier_space(self.irfft(cn_hat))

        nonlin_integration = F_n_hat * self.coef1 + 2*(F_an_hat + F_bn_hat) * self.coef2 + F_cn_hat * self.coef3
        
        U_next_hat = linear_full_step_term + nonlin_integration
        
        U_next = self.irfft(U_next_hat)
        return U_next


class MSE_Data_Loss:
    def __init__(self, target_trj, start_idx, temporal_density):
        self.target_trj = target_trj
        eval_indices = jnp.arange(start_idx, self.target_trj.shape[0], 1)
        n = int(eval_indices.shape[0] * temporal_density)

        random_indices = np.random.choice(eval_indices, size=n, replace=False)
        self.eval_indices = eval_indices[random_indices]
        self.mask = np.zeros(self.target_trj.shape[0])
        self.mask[self.eval_indices] = 1
        self.mask = jnp.array(self.mask)

    def data_loss(self, pred_trj):
        residual = (pred_trj - self.target_trj)
        mean = jnp.mean(residual**2, axis=1)
        return jnp.mean(self.mask * mean)


def grad_descent(value_and_grad_func, params, params_target, optimizer_settings, print_loss=False):
    num_iterations = optimizer_settings["num_iterations"]
    patience = optimizer_settings["patience"]
    factor = optimizer_settings["factor"]
    min_lr = optimizer_settings["min_lr"]
    learning_rate = optimizer_settings["lr"]

    best_loss = float('inf')
    patience_counter = 0

    optimizer = optax.adam(learning_rate=learning_rate)
    opt_state = optimizer.init(params)

    loss_record = np.zeros(num_iterations)
    param_target_record = np.zeros(num_iterations)

    for i in range(num_iterations):
        current_loss, grad = value_and_grad_func(params)
        loss_record[i] = current_loss
        norm = jnp.linalg.norm(grad)
        # Gradient clipping
        if norm >= 1:
            grad = grad / norm * 1

        updates, opt_state = optimizer.update(grad, opt_state, params)
        params = optax.apply_updates(params, updates)
        param_target_record[i] = jnp.mean(jnp.abs(params - params_target))

        if current_loss < best_loss:
            best_loss = current_loss
            patience_counter = 0
        else:
            patience_counter += 1

        if patience_counter >= patience:
            learning_rate = max(learning_rate * factor, min_lr)
            optimizer = optax.adam(learning_rate=learning_rate)
            opt_state = optimizer.init(params)
            patience_counter = 0

    return params, loss_record, param_target_record


def Autodiff_DA(solver, time_steps, loss_obj):

    @jax.jit
    def objective(u_0_guess):
        pred_trj = run_solver(solver, u_0_guess, time_steps)
        return loss_obj.data_loss(pred_trj)

    value_and_grad_func = jax.jit(jax.value_and_grad(objective))
    hess_func = jax.jit(jax.hessian(objective))

    return value_and_grad_func, hess_func


jax.config.update("jax_enable_x64", True)
N_CASE_RUNS = [0]  # scaffolding: counts the data-assimilation runs


def Run_DA_Cases():
    #DT used for DA
    DT = 0.1
    #min time for initial condition sampling
    min_sampling_time = 400
    #DT used to generate init trj
    init_trj_DT = .1

    np.random.seed(0)  # scaffolding
    init_trj = np.random.normal(size=(4200, 128))  # scaffolding: stands in for the saved RK4 trajectory (.npy)
    N_DOF = init_trj.shape[1]
    selection_lb = int(min_sampling_time / init_trj_DT)
    selection_ub = init_trj.shape[0]

    df_rows = [{"DOMAIN_SIZE": 22, "time_horizon": 2.0, "standoff_percent": 0.1,  # scaffolding: one row of
                "temporal_density": 0.5, "pert_mag": 0.1, "num_repeats": 3}]       # DA_cases_input.xlsx

    Hybrid_settings = {
        "lr": .001,
        "num_iterations": 5,  # scaffolding: 5 instead of 400
        "patience": 10,
        "factor": .7,
        "min_lr": 1e-7,
    }

    for row in df_rows:  # scaffolding: for index, row in df.iterrows()
        for _ in range(row["num_repeats"]):
            DOMAIN_SIZE = row["DOMAIN_SIZE"]

            time_horizon= row["time_horizon"]
            standoff_percent = row["standoff_percent"]
            temporal_density = row["temporal_density"]
            pert_mag = row["pert_mag"]

            Solver_type = KS_RK4
            loss_func = "MSE"

            selection_index = np.random.randint(selection_lb, selection_ub)

            u_0 = init_trj[selection_index, :]
            pert = np.random.uniform(low=-1.0, high=1.0, size=N_DOF)
            u_0_guess = u_0 + pert * pert_mag

            time_steps = int(time_horizon / DT)
            start_index = int(standoff_percent * time_steps)

            solver = jax.jit(Solver_type(L=DOMAIN_SIZE, N=N_DOF, dt=DT))
            target_trj = run_solver(solver, u_0, time_steps)

            if loss_func == "MSE":
                loss_obj = MSE_Data_Loss(target_trj, start_index, temporal_density)

            autodiff_value_and_grad_func, autodiff_hess_func = Autodiff_DA(solver, time_steps, loss_obj)

            #Autodiff ADAM
            u_0_optimized, loss_record, param_target_record = grad_descent(autodiff_value_and_grad_func, u_0_guess, u_0, Hybrid_settings, print_loss=True)
            N_CASE_RUNS[0] += 1  # scaffolding


Run_DA_Cases()
_report({"jit(objective)"}, N_CASE_RUNS[0])  # scaffolding
