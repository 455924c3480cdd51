// Status and Result<T>: how every error caused by input travels (no exceptions in the core).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tessera {

// An error carries one human-readable message that names where it happened,
// e.g. `nodes[7] (Conv "conv1"): kernel_shape has 3 values, expected 2`.
class Status {
 public:
  Status() = default;  // OK
  static Status error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

  // Returns a copy whose message is prefixed with `context: `.
  Status with_context(const std::string& context) const { return ok() ? *this : Status(context + ": " + message_); }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

// Either a value or a failed Status.
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : state_(std::move(status)) {}  // NOLINT: must be an error

  bool ok() const { return std::holds_alternative<T>(state_); }
  Status status() const { return ok() ? Status() : std::get<Status>(state_); }
  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace tessera

namespace tessera::detail {
inline Status to_status(const Status& s) { return s; }
template <class T>
Status to_status(const Result<T>& r) {
  return r.status();
}
}  // namespace tessera::detail

#define TESSERA_CONCAT_INNER(a, b) a##b
#define TESSERA_CONCAT(a, b) TESSERA_CONCAT_INNER(a, b)

// Returns a failed Status (or the Status of a failed Result) to the caller.
#define TESSERA_RETURN_IF_ERROR(expr)                                                \
  do {                                                                               \
    auto&& tessera_result_ = (expr);                                                 \
    if (!tessera_result_.ok()) return ::tessera::detail::to_status(tessera_result_); \
  } while (0)

// `TESSERA_ASSIGN_OR_RETURN(auto x, f());` unwraps a Result or returns its error.
#define TESSERA_ASSIGN_OR_RETURN(lhs, expr) \
  TESSERA_ASSIGN_OR_RETURN_IMPL(TESSERA_CONCAT(tessera_result_, __LINE__), lhs, expr)
#define TESSERA_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = std::move(tmp).value()
