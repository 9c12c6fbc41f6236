from . import views  # noqa: F401  (their routes, on the blueprint)
from .blueprint import bp  # noqa: F401
