// NFKC normalisation of identifiers, as Python reads them (PEP 3131): 'ϵ' and 'ε',
// 'µ' (micro sign) and 'μ', 'ﬁ' and 'fi' name the same variable.
#pragma once

#include <string>
#include <string_view>

namespace mahou::frontend {

// The NFKC form of a UTF-8 identifier (ASCII text is returned as it is).
std::string nfkcIdentifier(std::string_view utf8);

} // namespace mahou::frontend
