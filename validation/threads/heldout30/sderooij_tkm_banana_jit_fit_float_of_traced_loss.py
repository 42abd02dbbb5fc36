# source: https://github.com/sderooij/tensorized_kernel_methods/commit/312ba44aaf6567c511be2929792926c0f204e58f
# expect: trace-time-error at line 238
# runtime: ERROR ConcretizationTypeError
# why: fit records its loss with loss.append(float(loss_function(...)[0][0])) inside the ALS loop; once the notebook jits fit (jit(partial(fit, feature_map=polynomial, M=12, R=6))), float() is applied to a tracer and raises ConcretizationTypeError.
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



# --- src/tkm/features.py at 90e0d29 (the repo's own package, inlined) ---
from functools import partial
import jax.numpy as jnp
from jax import vmap, jit


# @partial(jit, static_argnums=(1,))
# @jit
def polynomial(
    X,
    M,
    *args,
    **kwargs,
):
    return jnp.power(X[:, None], jnp.arange(M))


def polynomial_(
    X,
    ar_M,
):
    return jnp.power(X[:, None], ar_M)


def polynomial_vmap(
    X,
    rangeM,
):
    return vmap(jnp.power, (None,0), (-1))(X, rangeM)


def compile_feature_map(
    feature_map,
    *args,
    **kwargs,
):
    # return jit(
    return partial(feature_map, *args, **kwargs)
        # )


def fourier(
    X,
    M,
    lengthscale,
    *args,
    **kwargs,
): 
    """
    function Mati = features(X,M,lengthscale)   # fourier features, but can be any polynomials is easiest
    X = (X+1/2)/2;
    w = 1:M;
    S = sqrt(2*pi) * lengthscale*exp(-(pi*w/2).^2*lengthscale^2/2);
    Mati = sinpi(X*w).*sqrt(S);
    end
    """
    X = (X+1/2)/2
    w = jnp.arange(1,M+1)
    S = jnp.sqrt(2*jnp.pi)*lengthscale * jnp.exp(- jnp.power((jnp.pi*w/2),2) * jnp.power(lengthscale,2) /2)
    return jnp.sin(jnp.pi*jnp.outer(X,w)) * jnp.sqrt(S)


# --- src/tkm/utils.py at 90e0d29 (the repo's own package, inlined) ---
import jax.numpy as jnp
from jax import jit
from jax import vmap


# @jit
def dotkron(a, b):
    """
    Row-wise kronecker product

    For column wise inspiration check khatri_rao: 
    https://scipy.github.io/devdocs/reference/generated/scipy.linalg.khatri_rao.html
    """
    # column-wise python
    # np.vstack([np.kron(a[:, k], b[:, k]) for k in range(b.shape[1])]).T

    # row-wise matlab
    # y = repmat(L,1,c2).*kron(R, ones(1, c1));
    # TODO check if transpose of repmat for second term option is: repmat() .* repmat()' 

    # TODO jax improvement for loops
    # TODO does python provide efficient kron() for vectors
    return jnp.vstack([jnp.kron(a[k, :], b[k, :]) for k in jnp.arange(b.shape[0])])


@jit
def vmap_dotkron(a,b):
    return vmap(jnp.kron)(a, b)


# --- src/tkm/metrics.py at 90e0d29 (the repo's own package, inlined) ---
import jax.numpy as jnp

def accuracy(y, y_hat):
    return (jnp.sign(y) == jnp.sign(y_hat)).mean()

def rmse(y,y_hat):
    return jnp.linalg.norm(y-y_hat)


# --- src/tkm/model.py at 90e0d29 (the repo's own package, inlined) ---
import jax.numpy as jnp
from jax import random
# from jax.numpy.linalg import solve
# from jax.scipy.linalg import solve      # TODO check difference between the two
# from jax.scipy.linalg import kharti_rao

# from tkm.features import polynomial, compile_feature_map, fourier  # scaffolding: defined above (inlined)
# from tkm.utils import dotkron, vmap_dotkron  # scaffolding: defined above (inlined)
from jax import jit,vmap


def init(
    key,
    X,
    M: int = 8,
    R: int = 10,
):
    """
    Separating the fit function into initialization (init) and
     out the initialization from the 
    """
    N,D = X.shape #jnp.shape(X)
    W = random.normal(key, shape=(D,M,R))
    # list(range(D)) # TODO: JAX
    Matd = jnp.ones((N,R))
    reg = jnp.ones((R,R))
    
    # initializaiton of cores
    # intializing with the constant cores already contracted
    for d in range(D-1, -1, -1):
        # W[d] = 
        W = W.at[d].divide(jnp.linalg.norm(W[d]))                  # TODO: check if this is necessary
        reg *= (W[d].T @ W[d])           # reg has shape R * R
        Mati = polynomial(X[:,d])                       # TODO implement features function
        Matd *= Mati @ W[d]            # Matd has shape N * R, contraction of phi_x_d * w_d

    return W, reg, Matd



def fit( # TODO: type hinting
    key,
    X,
    y,
    M: int = 8,
    R: int = 10,
    l: float = 1e-5, # TODO: default value
    lengthscale: float = 0.5, # TODO: default value
    numberSweeps: int = 10, # TODO: default value
    feature_map=polynomial,
    W = None,
):
    """
    input
        X: data
        y: labels
        M: M_hat degree of polynomials in one of the CP legs 
        R: rank
        l: peanalty term of regularisation (denoted by lambda)
        lenghtscale: hyperparameters of features
        numberSweeps: number of ALS sweeps, 1 -> D -> 1 (not including last one)
            1 and D are covered once
            middle is covered twice
            alternative is doing linear pas 1,...,D (not in this code)

    returns
        weights
        loss
        error: list of errors per ALS step
    """

    features = compile_feature_map(feature_map, M=M, lengthscale=lengthscale)
    # polynomial_compiled = jit(partial(polynomial, M=M))

    N,D = X.shape #jnp.shape(X)
    W = random.normal(key, shape=(D,M,R)) if W is None else W
    # list(range(D)) # TODO: JAX
    Matd = jnp.ones((N,R))
    reg = jnp.ones((R,R))
    
    # initializaiton of cores
    # intializing with the constant cores already contracted
    for d in range(D-1, -1, -1):
        W = W.at[d].divide(jnp.linalg.norm(W[d])) if W is None else W       # TODO: check if this is necessary
        reg *= jnp.dot(W[d].T, W[d])           # reg has shape R * R
        Mati = features(X[:,d])
        Matd *= jnp.dot(Mati, W[d])            # Matd has shape N * R, contraction of phi_x_d * w_d

    # D,M,R = W.shape
    # itemax = numberSweeps * D # numberSweeps *(2*(D-1))+1;    # not necesarry in python
    loss = []
    # error = []
    i=0
    for s in range(numberSweeps):
        for d in range(D):
            # compute phi(x_d)
            Mati = features(X[:,d])                               
            # undoing the d-th element from Matd (contraction of all cores)
            Matd /= jnp.dot(Mati, W[d])                                      
            C = vmap_dotkron(Mati,Matd)                                  # N by M_hat*R
            reg /= jnp.dot(W[d].T, W[d])                                    # regularization term
            regularization = l * jnp.kron(reg, jnp.eye(M)) # TODO: this results in sparse matrix, check if multiplications with 0 need to be avoided
            x = jnp.linalg.solve(                                   # solve systems of equations
                (jnp.dot(C.T, C) + regularization), 
                jnp.dot(C.T, y)
            )
            loss.append(float(loss_function(C,x,y,regularization)[0][0]))
            # print(error(C,x,y))
            # loss = jnp.linalg.norm(C @ x - y)**2 + x.T @ regularization @ x )  #TODO check if **2 is necessary (can it be done in function call of norm)
            # error =  jnp.mean(jnp.sign(C @ x) != y) # TODO not equal elementwise   # classification; for regression mean(((C*x)-y).^2)
            W = W.at[d].set( x.reshape((M,R)) )
            reg *= jnp.dot(W[d].T, W[d])
            Matd *= jnp.dot(Mati, W[d])
            i+=1
    return W, loss #error


@jit
def loss_function(C,x,y,regularization):
    return jnp.power(jnp.linalg.norm(jnp.dot(C,x) - y),2) + x.T.dot(regularization).dot(x)


@jit
def error(C,x,y):
    return jnp.mean(jnp.sign(C.dot(x)) != y)


def predict(
    X, 
    W, 
    # hyperparameters,
    feature_map=polynomial,
    *args,**kwargs,
):
    features = compile_feature_map(feature_map, *args,**kwargs)
    N, D = X.shape
    M = W[0].shape[0]
    # polynomial = compile_feature_map(M=M)
    score = jnp.ones((N,1))
    for d in range(D): #TODO JAX fori
        score *= jnp.dot(
            features(X[:,d]) , 
            W[d]
        )
    score = jnp.sum(score, 1)

    return score


def predict_vmap(
    X, 
    W, 
    # hyperparameters,
):
    
    M = W[0].shape[0]
    poly = compile_feature_map(M=M)

    return vmap(
        lambda x,y :jnp.dot(poly(x),y), (1,0),
    )(X, W).prod(0).sum(1)


# --- notebooks/banana.ipynb at 312ba44, code cells in order ---
# cell 1
# %load_ext autoreload  # scaffolding: IPython shell/magic line
# %autoreload 2  # scaffolding: IPython shell/magic line
# cell 2
# from jax.config import config
# config.update("jax_enable_x64", True)
# cell 3
# import pandas as pd  # scaffolding: pandas is not installed; a minimal stand-in for the calls used below
import numpy as _np  # scaffolding


class _Loc:  # scaffolding
    def __init__(self, df): self.df = df  # scaffolding
    def __setitem__(self, key, value):  # scaffolding: df.loc[mask, col] = value
        mask, col = key  # scaffolding
        self.df._cols[col][mask] = value  # scaffolding


class _DataFrame:  # scaffolding
    def __init__(self, cols): self._cols = cols; self.loc = _Loc(self)  # scaffolding
    def __getattr__(self, name):  # scaffolding
        if name.startswith("_"): raise AttributeError(name)  # scaffolding
        return self._cols[name]  # scaffolding
    def __getitem__(self, names): return _DataFrame({n: self._cols[n] for n in names})  # scaffolding
    def head(self): return self  # scaffolding
    def to_numpy(self): return _np.column_stack([self._cols[n] for n in self._cols])  # scaffolding


class pd:  # scaffolding
    @staticmethod
    def read_csv(path):  # scaffolding: data/banana.csv (5300 rows, columns V1, V2, Class in {1, 2}); random rows of the same layout instead of reading the repo file
        rs = _np.random.RandomState(0)  # scaffolding
        return _DataFrame({"V1": rs.normal(size=5300), "V2": rs.normal(size=5300), "Class": rs.randint(1, 3, 5300)})  # scaffolding
from pathlib import Path
# cell 4
data_path = Path("../data/banana.csv")
df_banana = pd.read_csv(data_path)
# cell 5
df_banana.head()
# cell 6
# expecting labels 1 and -1

# transform label 2 to -1
df_banana.loc[df_banana.Class == 2, 'Class'] = -1
df_banana.head()
# cell 7
# standardize

# df_banana[['V1','V2']] = (df_banana[['V1','V2']] -  df_banana[['V1','V2']].min() )/ (df_banana[['V1','V2']].max() - df_banana[['V1','V2']].min())
# df_banana.head()
# cell 8
feature_names = ['V1', 'V2']
x = df_banana[feature_names].to_numpy()

label_name = ['Class']
y = df_banana[label_name].to_numpy()
# cell 9
# rescale

x = (x - x.min(axis=0)) / (x.max(axis=0) - x.min(axis=0))
# cell 10
from jax import numpy as jnp
x = jnp.array(x)
y = jnp.array(y)
# cell 11
from jax import random
key = random.PRNGKey(42)
# cell 12
# from tkm.model import fit  # scaffolding: inlined above
from jax import jit
# from tkm.features import polynomial  # scaffolding: inlined above

W = fit(key,x,y,M=12,R=6,feature_map=polynomial)
# cell 13
fit(key,x,y,M=12,R=6,feature_map=polynomial)  # scaffolding: IPython %timeit magic removed
# cell 14
from functools import partial

fit_polynomial = partial(fit, feature_map=polynomial, M=12, R=6)
fit_compiled = jit(fit_polynomial)

try:  # scaffolding
    fit_compiled(key, x, y).block_until_ready()  # scaffolding: IPython %timeit magic removed
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
    raise SystemExit  # scaffolding: the cells after this one need the jitted fit
# cell 15
# from tkm.model import predict  # scaffolding: inlined above
# from tkm.metrics import accuracy  # scaffolding: inlined above

y_hat = predict(x, W, feature_map=polynomial, M=12,R=6)
acc = accuracy(y.squeeze(), y_hat)
acc
# cell 16
predict(x, W, M=12,R=6, feature_map=polynomial)  # scaffolding: IPython %timeit magic removed
# cell 17
predict_polynomial = partial(predict, feature_map=polynomial, M=12, R=6)
predict_compiled = jit(predict_polynomial)

predict_compiled(x,W).block_until_ready()  # scaffolding: IPython %timeit magic removed
# cell 18
# from jax import jit
# from tkm.model import predict_vmap  # scaffolding: inlined above

y_hat = predict_vmap(x, W, feature_map=polynomial, M=12, R=6)
acc = accuracy(y.squeeze(), y_hat)
print(acc)

predict_vmap(x, W, feature_map=polynomial, M=12, R=6)  # scaffolding: IPython %timeit magic removed
# cell 19
predict_vmap_poly = partial(predict_vmap, feature_map=polynomial, M=12, R=6)
predict_vmap_compiled = jit(predict_vmap_poly)

predict_vmap_compiled(x,W).block_until_ready()  # scaffolding: IPython %timeit magic removed
# cell 20
# from tkm.features import fourier  # scaffolding: inlined above

W = fit(key,x,y,M=12,R=6,lengthscale=0.5,feature_map=fourier)
y_hat = predict(x, W, feature_map=fourier, M=12,R=6,lengthscale=0.5)
acc = accuracy(y.squeeze(), y_hat)
print(acc)
# cell 21


