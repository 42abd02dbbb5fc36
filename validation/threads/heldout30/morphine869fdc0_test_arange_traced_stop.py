# source: https://github.com/benjaminpope/morphine/blob/869fdc0d44a498c8adceae45afa17f844005e150/notebooks/soft_threshold.ipynb
# expect: trace-time-error at line 176
# runtime: ERROR ConcretizationTypeError
# why: test = jit(test_arange) makes n a traced argument, so np.arange(0, n, 1) (jax.numpy as np) gets a traced stop and raises ConcretizationTypeError; the notebook's saved output shows the same error, and the commit message says jit was disabled for the moment.
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

class _Plt:  # scaffolding: matplotlib is not installed; plotting calls are no-ops
    def __getattr__(self, name):  # scaffolding
        return _Plt()  # scaffolding

    def __call__(self, *a, **k):  # scaffolding
        return None  # scaffolding


# cell 1
import jax.numpy as np
import numpy as onp
from jax import grad, jit, vmap, jacfwd, jacrev
from jax import random
# from jax.ops import index_update  # scaffolding: removed from jax; unused in the cells kept
# import matplotlib.pyplot as plt  # scaffolding: stand-in below
plt = _Plt()  # scaffolding
# (astropy, xaosim, scipy, tqdm, morphine imports and the matplotlib style settings cut)  # scaffolding
colours = ['C0', 'C1', 'C2']  # scaffolding: mpl.rcParams['axes.prop_cycle'] colours
# cells 2-8 (Zernike modes from the morphine package) cut  # scaffolding
# cell 9
x0, y0 = 0.3, 0.6

npix = 50
xx, yy = np.meshgrid(np.linspace(0,1,npix),np.linspace(0,1,npix))
rr = np.sqrt((xx-x0)**2 + (yy-y0) **2) 

vignette = np.exp(-(rr/0.25)**3)
vignette /= np.max(vignette)
vignette = 30*xx+5*yy -12
# cell 10
@jit
def normalize(vignette):
    return (vignette-np.min(vignette))/(np.max(vignette)-np.min(vignette))

@jit
def centroid(vignette):
    vv = normalize(vignette)
    xx, yy = np.meshgrid(np.linspace(0,1,vignette.shape[0]),np.linspace(0,1,vignette.shape[1]))
    return np.sum(vv*xx)/np.sum(vv),np.sum(vv*yy)/np.sum(vv)

plt.imshow(vignette,extent=[0,1,0,1])
plt.colorbar()
plt.scatter(centroid(vignette)[0],centroid(vignette)[1])
# cell 11
plt.imshow((vignette)>0,extent=[0,1,0,1])
plt.axvline(0.233)
plt.axvline(0.39999917)
# cell 12
def lsq_params(img):
    xx, yy = np.meshgrid(np.linspace(0,1,img.shape[0]),np.linspace(0,1,img.shape[1]))
    A = np.vstack([xx.ravel(), yy.ravel(), np.ones_like(xx).ravel()]).T
    matrix = np.linalg.inv(np.dot(A.T,A)).dot(A.T)
    return matrix, xx, yy, A

@jit
def lsq(img):
    return np.dot(matrix,img.ravel())

def area(img):
    #line of nodes: ax + by + c = 0
    # y = -c/b -(a/b)x
    # indefinite integral is (-c/b)x -(a/2b)x**2
    # so area under curve from 0 to 1 is (-c/b -a/2b)
    # but at y = 1: ax + b + c = 0
    # x_1 = (-b-c)/a
    # at y = 0: ax + c = 0 -> x_2 = -c/a
    if np.all(img>0):
        return 1.
    elif np.all(img<0):
        return 0.
    else:
        a,b,c = lsq(img)
        
        x1 = (-b-c)/a
        x2 = -c/a
        x1, x2 = np.min([x1,x2]), np.max([x1,x2])
        x1, x2 = np.max([x1,0]), np.min([x2,1])

        dummy = x1 + (-c/b)*x2-(0.5*a/b)*x2**2 - (-c/b)*x1+(0.5*a/b)*x1**2
        positive = np.mean(img)>0 # 1 if positive, 0 if negative
        if dummy > 0.5:
            dummy = 1-dummy
        if positive:
            return (1-dummy)
        else:
            return dummy
        
@jit
def jit_area(img):
    #line of nodes: ax + by + c = 0
    # y = -c/b -(a/b)x
    # indefinite integral is (-c/b)x -(a/2b)x**2
    # so area under curve from 0 to 1 is (-c/b -a/2b)
    # but at y = 1: ax + b + c = 0
    # x_1 = (-b-c)/a
    # at y = 0: ax + c = 0 -> x_2 = -c/a
#     binary = np.where(np.all((img<0))+np.all((img>0)),1,0)
#     if np.all(img>0):
#         return 1.
#     elif np.all(img<0):
#         return 0.
#     else:
    a,b,c = lsq(img)
    a, b, c = np.where(a==0,1e-15,a), np.where(b==0,1e-15,b), np.where(c==0,1e-15,c)
    x1 = (-b-c)/(a) # don't divide by zero
    x2 = -c/(a) # don't divide by zero
    x1, x2 = np.min(np.array([x1,x2])), np.max(np.array([x1,x2]))
    x1, x2 = np.max(np.array([x1,0])), np.min(np.array([x2,1]))

    dummy = x1 + (-c/b)*x2-(0.5*a/b)*x2**2 - (-c/b)*x1+(0.5*a/b)*x1**2
    positive = np.mean(img)>0 # 1 if positive, 0 if negative
    dummy = np.where(dummy>=0.5,dummy,1-dummy)
    dummy = np.where(np.mean(img)>=0,dummy,1-dummy)
    dummy = np.where(np.all(img>0),1,dummy)
    dummy = np.where(np.all(img<=0),0,dummy)
    dummy = np.where(np.any(img==0),np.mean(dummy>0),dummy)
    dummy = np.where(np.all(img==0),0,dummy)

    dummy = np.clip(dummy,0,1)
    return dummy
# cell 13
matrix, xx, yy, A = lsq_params(vignette)

a, b, c = lsq((vignette))
print(a,b,c)
# cell 14
# %%timeit  # scaffolding: cell magic dropped, the statement kept
lsq(vignette)
# cell 15
# %%timeit  # scaffolding: cell magic dropped, the statement kept
jit_area(vignette)
# cell 16
down = np.linspace(-30,25,100)
thresh = []
cxx, cyy = [],[]
for d in down:
    thresh.append(jit_area(vignette+d))
    cen = centroid(vignette+d)
    cxx.append(cen[0])
    cyy.append(cen[1])
thresh = np.array(thresh)
plt.plot(down,thresh)
lower, upper = np.max(np.array(np.where(thresh==0))), np.min(np.array(np.where(thresh==1)))
print(down[lower],down[upper])
plt.axvline(down[lower],color=colours[2])
plt.axvline(down[upper],color=colours[2])
# cells 17-27 (soft thresholding of the Zernike mode, psf_from_zernikes with morphine) cut  # scaffolding
# cell 28
def test_arange(n):
#     n = x.shape[0]
    return np.arange(0,n,1)

test = jit(test_arange)

# test(np.arange(5))
try:  # scaffolding
    test(5)
    _report({"jit(test_arange)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
