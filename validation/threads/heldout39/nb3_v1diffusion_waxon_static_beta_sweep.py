# source: https://github.com/ballerin/v1diffusion/blob/e4a14035c9348d72ec44a02bc69219a29fbef057/jupyter_notebooks/waxon_waxoff_example.ipynb
# expect: changing-static at line 141
# runtime: COMPILES 2 CALLS 20
# why: hypoelliptic_heat_operator lists the float weight beta in static_argnames although it only scales a term, so the wax-on notebook's second cell (beta=0.5 after beta=0.2) retraces and recompiles the whole operator for the new value.

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
# operators.py
#import numpy as np
from functools import partial
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random

@partial(jit, static_argnames=['n','model','order'])
def dX1(u, n=1, model=0, order=2):
    """
    model:
    0: SE(2)
    1: PTR2

    Directional derivative X_1 in SE2/PTR2
    X_1(x,y,\theta) = \cos(\theta)\partial_x + \sin(\theta)\partial_y 

    From the documentation of numpy.gradient:
    The gradient is computed using second order accurate central differences in
    the interior points and either first or second order accurate one-sides
    (forward or backwards) differences at the boundaries. The returned gradient
    hence has the same shape as the input array
    """
    u2 = u
    for i in range(n):
        #Construct a constant boundary for Neumann condition
        
        if model==1:
            COS = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.cos(jnp.linspace(0,jnp.pi,u2.shape[2])))[2]
            SIN = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.sin(jnp.linspace(0,jnp.pi,u2.shape[2])))[2]
        elif model==0:
            COS = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.cos(jnp.linspace(0,2*jnp.pi,u2.shape[2])))[2]
            SIN = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.sin(jnp.linspace(0,2*jnp.pi,u2.shape[2])))[2]
        else:
            raise Exception("Method not found")
        
        if order == 1:
            dx = jnp.diff(u2, axis=1, append=u2[:,-1:,:])
            dy = jnp.diff(u2, axis=0, append=u2[-1:,:,:])
        elif order == 2:
            dx = jnp.gradient(u2, axis=1)
            dy = jnp.gradient(u2, axis=0)
            
        #Force Neumann boundary conditions
        dx = dx.at[:,0,:].set(0)
        dx = dx.at[:,-1,:].set(0)
        dy = dy.at[0,:,:].set(0)
        dy = dy.at[-1,:,:].set(0)

        u2 = (COS*dx+SIN*dy)
    return u2

@partial(jit, static_argnames=['n','model'])
def dX2(u, n=1, model=0):
    """
    model:
    0: SE(2)
    1: PTR2

    Directional derivative X_2 in SE2/PTR2
    X_2(x,y,\theta) = \partial_\theta
    """
    u2 = u
    u3 = jnp.zeros((u2.shape[0],u2.shape[1], u2.shape[2]+4))
    for i in range(n):
        #Periodic boundary
        u3 = u3.at[:,:,2:-2].set(u2)
        u3 = u3.at[:,:,:2].set(u2[:,:,-2:])
        u3 = u3.at[:,:,-2:].set(u2[:,:,:2])

        u2 = jnp.gradient(u3, axis=2)[:,:,2:-2]
    return u2

@partial(jit, static_argnames=['n','model','order'])
def dX3(u, n=1, model=0, order=2):
    """
    model:
    0: SE(2)
    1: PTR2

    Directional derivative X_3 in SE2/PTR2
    X_3(x,y,\theta) = -\sin(\theta)\partial_x + \cos(\theta)\partial_y 
    """
    u2 = u
    for i in range(n):
        #Construct a constant boundary for Neumann condition
        
        if model==0:
            COS = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.cos(jnp.linspace(0,jnp.pi,u2.shape[2])))[2]
            SIN = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.sin(jnp.linspace(0,jnp.pi,u2.shape[2])))[2]
        elif model==1:
            COS = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.cos(jnp.linspace(0,2*jnp.pi,u2.shape[2])))[2]
            SIN = jnp.meshgrid(jnp.arange(0,u2.shape[1]), jnp.arange(0,u2.shape[0]), jnp.sin(jnp.linspace(0,2*jnp.pi,u2.shape[2])))[2]
        else:
            raise Exception("Method not found")
        
        if order == 1:
            dx = jnp.diff(u2, axis=1, append=u2[:,-1:,:])
            dy = jnp.diff(u2, axis=0, append=u2[-1:,:,:])
        elif order == 2:
            dx = jnp.gradient(u2, axis=1)
            dy = jnp.gradient(u2, axis=0)
            
        #Force Neumann boundary conditions
        dx = dx.at[:,0,:].set(0)
        dx = dx.at[:,-1,:].set(0)
        dy = dy.at[0,:,:].set(0)
        dy = dy.at[-1,:,:].set(0)

        u2 = (-SIN*dx+COS*dy)
    return u2

@partial(jit, static_argnames=['beta','model'])
def hypoelliptic_heat_operator(u, beta=1, model=0):
    """
    Applies the hypoelliptic heat operator X_1^2 + \beta X_2^2 to a lifted image
    in PTR2

    u: image in PTR2
    beta: weight coefficient
    """

    return dX1(u,n=2, model=model, order=2) + beta**2 * dX2(u, n=2, model=model)

@partial(jit, static_argnames=['beta','model'])
def orthogonal_operator(u, beta=1, model=0):
    """
    Applies the hypoelliptic heat operator X_3^2 + \beta X_2^2 to a lifted image
    in PTR2. This is the orthogonal wrt to the level lines


    u: image in PTR2
    beta: weight coefficient
    """

    return dX3(u,n=2, model=model, order=2) + beta**2 * dX2(u, n=2, model=model)

@jit
def vc_hypoelliptic_heat_operator(u, a, b):
    """
    Applies the hypoelliptic heat operator aX_1^2 + bX_2^2 to a lifted image
    in PTR2

    u: image in PTR2
    a: weight coefficient
    b: weight coefficient
    """

    u1 = dX1(u,n=2)
    u2 = dX2(u,n=2)
    
    uu = jnp.zeros(u.shape)
    for i in range(u.shape[2]):
        uu[:,:,i] = a*u1[:,:,i] + b*u2[:,:,i]
             
    return uu


# evolution.py (the functions the notebook uses)
import numpy as np
from tqdm import tqdm
import types  # scaffolding
operators = types.SimpleNamespace(hypoelliptic_heat_operator=hypoelliptic_heat_operator, orthogonal_operator=orthogonal_operator)  # scaffolding: `from v1diffusion import operators`

def parallel_diffusion(u0, T, dt=0.1, beta=0.5, model=0, progress=True):
    """
    Hypoelliptic evolution in PTR2 according to Boscain-2016
    
    This method takes an input an image lifted in PTR2 and applies the
    hypoelliptic heat operator \Delta_H at time intervals of dt until final time
    T is reached

    u0: image in PTR2
    T: time to run the evolution
    dt: time interval
    beta: weight coefficient
    progress: to either show or not tqdm animated progress bar

    @returns: an image in PTR2
    """

    u1 = u0 #Initialization of u1 in case the loop is not ran

    t=0
    for step in tqdm(range(0, int(T/dt)), disable=(not progress)):
        u1 = u1+dt*operators.hypoelliptic_heat_operator(u1, beta, model)
        t+=dt
    
    return np.asarray(u1)


def orthogonal_diffusion(u0, T, dt=0.1, beta=0.5, model=0, progress=True):
    u1 = u0.copy() #Initialization of u1 in case the loop is not ran

    t=0
    for step in tqdm(range(0, int(T/dt)), disable=(not progress)):
        u1 = u1+dt*operators.orthogonal_operator(u1, beta, model)
        t+=dt
    
    return u1


def parallel_concentration(u0, T, dt=0.01, beta=0.5, model=0, progress=True):
    """
    Handler function to regress the hypoelliptic evolution with negative dt
    """
    u1 = u0 #Initialization of u1 in case the loop is not ran

    t=0
    for step in tqdm(range(0, int(T/dt)), disable=(not progress)):
        u1 = u1-dt*operators.hypoelliptic_heat_operator(u1, beta, model)
        t+=dt
    
    return np.asarray(u1)


def orthogonal_concentration(u0, T, dt=0.01, beta=0.5, model=0, progress=True):
    """
    Handler function to regress the hypoelliptic evolution with negative dt
    """
    u1 = u0 #Initialization of u1 in case the loop is not ran

    t=0
    for step in tqdm(range(0, int(T/dt)), disable=(not progress)):
        u1 = u1-dt*operators.orthogonal_operator(u1, beta, model)
        t+=dt
    
    return np.asarray(u1)


def v1_unsharp_filter(u, C=1, T=1, beta=1, model=0):
    """
    Applies the unsharp filter as described in Ballerin-Grong-23


    u: image in PTR2/SE2
    T: final time
    beta: weight coefficient
    """
    u2 = orthogonal_concentration(u, T, beta=beta, model=model)
    return u-C*(u-u2)


def evolve_vc_hypoelliptic(u0, img, T, a0=1, b0=1, a1=1, b1=1, sigma=1,
 epss=0.1, dt=0.1, progress=True):
    """
    Hypoelliptic evolution with varying coefficients in PTR2 
    
    This method takes an input an image lifted in PTR2 and applies
    the hypoelliptic heat operator \Delta_H with varying coefficients
    at time intervals of dt until final time T is reached

    u0: image in PTR2
    img: the original 2D greyscale image
    T: time to run the evolution
    a0: starting weight
    b0: starting weight
    a1: starting weight
    a2: starting weight
    sigma: weight
    epss: weight
    dt: time interval
    progress: to either show or not tqdm animated progress bar

    @returns: an image in PTR2
    """

    u1 = u0.copy() #Initialization of u1 in case the loop is not ran

    eps = np.exp(-img**2/sigma)
    t=0
    for step in tqdm(range(0, int(T/dt)), disable=(not progress)):
        a = np.zeros(u0.shape[:2])
        b = np.zeros(u0.shape[:2])
        a_mask = (a0+a1*eps)/(a0+a1)>epss
        b_mask = (b0+b1*eps)/(b0+b1)>epss
        a[a_mask] = a0 + a1*eps[a_mask]
        b[b_mask] = b0 + b1*eps[b_mask]

        u1 = u0+dt*operators.vc_hypoelliptic_heat_operator(u0, a, b)
        u0 = u1.copy()
        t+=dt

    return u1


# transforms.py (lift_gaussian, project_max)
from scipy import ndimage  # scaffolding: cv2 is not installed here


def _sobel(img, dx, dy):  # scaffolding: stand-in for cv2.Sobel(img, cv2.CV_64F, dx, dy, ksize=5, ...)
    return ndimage.sobel(img.astype(np.float64), axis=1 if dx else 0, mode="nearest")


def lift_gaussian(img, sigma, model="SE2", theta_size=30):
    """
    Gaussian lift
    """

    imgR = np.repeat(img[..., None], theta_size, axis=2)
    Ix = _sobel(img, 1, 0)  # scaffolding: cv2.Sobel(img,cv2.CV_64F,1,0,ksize=5, borderType=cv2.BORDER_REPLICATE)
    Iy = _sobel(img, 0, 1)  # scaffolding: cv2.Sobel(img,cv2.CV_64F,0,1,ksize=5, borderType=cv2.BORDER_REPLICATE)
    u = np.zeros((img.shape[0],img.shape[1],theta_size))
    S = np.repeat((Ix**2 + Iy**2)[...,None], theta_size, axis=2)
    v = np.arange(theta_size)*np.pi/theta_size
    COS = np.repeat(np.repeat(np.cos(v)[None,...], img.shape[1], axis=0)[None,...], img.shape[0], axis=0)
    SIN = np.repeat(np.repeat(np.sin(v)[None,...], img.shape[1], axis=0)[None,...], img.shape[0], axis=0)

    #Compute the magnitude of the gradient in the direction (cos, sin)
    A = ((np.repeat(Ix[...,None],theta_size, axis=2) * COS + np.repeat(Iy[...,None],theta_size, axis=2) * SIN)**2)

    #Only divide by the magnitude where such magnitude is >0. Otherwise the value of the image is used
    A = np.divide(A, S, where=S!=0)
    A[S==0]=imgR[S==0]

    #Construct the Gaussian
    u = imgR * np.exp(- A/(4* sigma**2))

    return u


def project_max(u):
    img = np.amax(u, axis=2)
    return img


import types  # scaffolding
transforms = types.SimpleNamespace(lift_gaussian=lift_gaussian, project_max=project_max)  # scaffolding
evolution = types.SimpleNamespace(parallel_diffusion=parallel_diffusion, orthogonal_concentration=orthogonal_concentration)  # scaffolding


# jupyter_notebooks/waxon_waxoff_example.ipynb
# cell 1
import numpy as np
import jax.numpy as jnp

# cell 2
I = np.zeros((64,64), dtype=np.float32)  # scaffolding: 256x256 -> 64x64
I[30::38,:] = 1
I[31::38,:] = 1
I[:,27:37] = 0  # scaffolding: 123:133 -> 27:37 for the smaller image
I_h = ndimage.gaussian_filter(I, 0.4)  # scaffolding: cv2.GaussianBlur(I,(15,15),0.4)

# cell 4
Ia = I_h.copy()
sigma = 100
sigma2 = 100
T = 0.5  # scaffolding: 6 -> 0.5
T2 = 0.2
N = 2  # scaffolding: 6 -> 2

Ja = transforms.lift_gaussian(Ia,sigma)
for n in range(N):

    Ja = evolution.parallel_diffusion(Ja,T,beta=0.2)

Ia = transforms.project_max(Ja)

# cell 6
Ia = I_h.copy()

sigma = 100
T1 = 5
T2 = 0.5
N = 2  # scaffolding: 6 -> 2

Ja = transforms.lift_gaussian(Ia,sigma)

for n in range(N):
    Ja = evolution.parallel_diffusion(Ja,T,beta=0.5)

    Ja = evolution.orthogonal_concentration(Ja,T=T2, beta=0.1)

Ia = transforms.project_max(Ja)

_report({"jit(hypoelliptic_heat_operator)"}, 2 * 5 + 2 * 5)  # scaffolding: parallel_diffusion steps only
