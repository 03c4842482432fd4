#pragma once
// The elements of a std::priority_queue, in no particular order: read-only
// access to its protected container, for reports (--step) that list what a
// model's queues hold without popping them.
#include <queue>

namespace contend {

template <class Queue>
const typename Queue::container_type& queue_contents(const Queue& queue) {
  struct Access : Queue {
    static const typename Queue::container_type& of(const Queue& q) { return q.*(&Access::c); }
  };
  return Access::of(queue);
}

}  // namespace contend
