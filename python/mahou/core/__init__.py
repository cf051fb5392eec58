"""numba.core's names that programs import: mahou.core.types, .errors, .extending, .config."""

import sys as _sys

from .. import config, errors, extending, types

for _name, _mod in (("types", types), ("errors", errors), ("extending", extending), ("config", config)):
    _sys.modules[__name__ + "." + _name] = _mod
