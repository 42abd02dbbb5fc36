# source: https://github.com/lucadimascolo/socca/blob/53d6cbf4173e553e6352a77c2c72d7c08fa666fd/socca/noise.py
# expect: trace-time-error at line 136
# runtime: ERROR TypeError
# why: The Fourier-space noise model jits the static method _logpdf with every input as a traced argument, so the FFT-type string ftype (and the boolean pixel mask used for indexing) is passed to jit as an argument and the likelihood fails with a TypeError on the first evaluation.

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
# socca/utils.py (the imports noise.py takes from it)
import jax; jax.config.update('jax_enable_x64',True)
import jax.numpy as jp
import numpy as np
import warnings


def convolve(*args, **kwargs):  # scaffolding: astropy.convolution.convolve (not installed; unused with smooth=0)
    raise NotImplementedError  # scaffolding


CustomKernel = None  # scaffolding: astropy.convolution.CustomKernel


# socca/noise.py
# ========================================================
class NormalFourier:
    """
    Noise model with independent noise in Fourier space.
    The noise covariance is defined in Fourier space.
    
    Attributes
    ----------
    fmask : jax.numpy.ndarray
        Boolean mask indicating which Fourier modes have non-zero noise.
    ftype : str
        Type of Fourier transform to use. Options are:
        - 'real' or 'rfft': real-to-complex FFT (for real input data)
        - 'full' or 'fft': complex-to-complex FFT (for complex input data)
    apod : jax.numpy.ndarray
        Apodization map applied to the data before Fourier transforming.
    cov : jax.numpy.ndarray
        Noise covariance in Fourier space.
    icov : jax.numpy.ndarray
        Inverse noise covariance in Fourier space.
    norm : float
        Normalization constant for the log-pdf.
    data : jax.numpy.ndarray
        Image data array. This is set when the model is called.
    mask : jax.numpy.ndarray
        Image mask array. This is set when the model is called.
    """
    def __init__(self,cov=None,cube=None,ftype='real',**kwargs):
        """
        Parameters
        ----------
        cov : array_like, optional
            Noise covariance in Fourier space. If not provided, computed from cube.
        cube : array_like, optional
            3D array of noise realizations. First dimension is the number
            of realizations. Used to compute covariance if cov is None.
        ftype : str, optional, default 'real'
            Type of Fourier transform to use. Options are:
            - 'real' or 'rfft': real-to-complex FFT (for real input data)
            - 'full' or 'fft': complex-to-complex FFT (for complex input data)
        """
        if ftype not in ['real','rfft','full','fft']:
            raise ValueError("ftype must be either 'real'/'rfft' or 'full'/'fft'.")
        self.ftype = ftype

        if cube is not None and cov is None:
            self.apod = kwargs.get('apod',jp.ones(cube.shape))
            
            fft = jp.fft.rfft2  if ftype in ['real','rfft'] else jp.fft.fft2
            cov = fft(cube*self.apod,axes=(-2,-1))
            cov = np.mean(np.abs(cov)**2,axis=0)/np.mean(self.apod**2)

            smooth = kwargs.get('smooth',3)
            if smooth>0:
                kernel = kwargs.get('kernel',None)
                if kernel is None:
                    kernel = np.array([[0.00,1.00,0.00],
                                       [1.00,1.00,1.00],
                                       [0.00,1.00,0.00]])/5.00
                    kernel = CustomKernel(kernel)

                for _ in range(smooth): 
                    cov = jp.array(convolve(cov,kernel,boundary='wrap'))

        elif cov is not None and cube is not None:
            warnings.warn('Both covariance matrix and noise cube provided. \
                           Using covariance matrix.')
        elif cov is None and cube is None:
            raise ValueError('Either covariance matrix or noise realization cube must be provided.')

        self.cov  = jp.asarray(cov.astype(float))
        self.icov = 1.00/self.cov

        mask_icov = jp.logical_or(self.icov == jp.inf, jp.isnan(self.icov))
        self.icov = self.icov.at[mask_icov].set(0.00)
        del mask_icov

#   Set up noise model
#   --------------------------------------------------------
    def __call__(self,data,mask):
        self.mask = mask.copy()
        self.mask = self.mask==1.00
        self.data = data.copy()
        
        self.fmask = self.icov!=0.00

        self.norm = jp.log(2.00*jp.pi*self.cov.at[self.fmask].get()).sum()
        self.logpdf = lambda xs: self._logpdf(xs,self.data,self.icov,self.mask,self.apod,self.fmask,self.ftype)-0.50*self.norm

#   Noise log-pdf/likelihood function
#   --------------------------------------------------------
    @staticmethod
    @jax.jit
    def _logpdf(x,data,icov,mask,apod,fmask,ftype='real'):
        fft = jp.fft.rfft2 if ftype in ['real','rfft'] else jp.fft.fft2

        xmap = jp.zeros(mask.shape)
        xmap = xmap.at[mask].set(x)

        chisq = fft((xmap-data)*apod,axes=(-2,-1))
        chisq = icov*jp.abs(chisq)**2
        return -0.50*jp.sum(chisq.at[fmask].get())


# scaffolding: a noise model built from simulated noise realizations, then evaluated at a few model maps
rng = np.random.default_rng(0)  # scaffolding
cube = rng.normal(size=(8, 32, 32))  # scaffolding: noise realizations
data = rng.normal(size=(32, 32))  # scaffolding: image
mask = np.ones((32, 32))  # scaffolding: image mask
noise = NormalFourier(cube=cube, ftype='real', smooth=0)  # scaffolding
noise(data, mask)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for scale in [0.5, 1.0, 1.5]:  # scaffolding: model maps proposed by the sampler
        xs = jp.asarray(scale * data.ravel())  # scaffolding
        lp = noise.logpdf(xs)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(_logpdf)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
