// Cards: a list of card kinds with its room inside (no heap), as many as a deal holds. The
// engine and the rule player build many short lists a decision: inside, they cost no
// allocation.
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <stdexcept>

namespace baofen {

template <class T, std::size_t N>
class InlineVector {
  public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    InlineVector() {}  // the room left uninitialised: only the first size() items are read
    explicit InlineVector(size_type n, const T& value = T()) { resize(n, value); }
    InlineVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    InlineVector(It first, It last) { assign(first, last); }
    InlineVector(const InlineVector& other) : size_(other.size_) {
        std::copy(other.begin(), other.end(), items_);
    }
    InlineVector& operator=(const InlineVector& other) {
        size_ = other.size_;
        std::copy(other.begin(), other.end(), items_);
        return *this;
    }

    template <class It>
    void assign(It first, It last) {
        size_ = 0;
        for (; first != last; ++first) push_back(*first);
    }

    iterator begin() { return items_; }
    iterator end() { return items_ + size_; }
    const_iterator begin() const { return items_; }
    const_iterator end() const { return items_ + size_; }
    const_iterator cbegin() const { return items_; }
    const_iterator cend() const { return items_ + size_; }
    reverse_iterator rbegin() { return reverse_iterator(end()); }
    reverse_iterator rend() { return reverse_iterator(begin()); }
    const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
    const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

    size_type size() const { return size_; }
    bool empty() const { return size_ == 0; }
    static constexpr size_type capacity() { return N; }
    void reserve(size_type) {}
    T* data() { return items_; }
    const T* data() const { return items_; }
    T& operator[](size_type i) { return items_[i]; }
    const T& operator[](size_type i) const { return items_[i]; }
    T& front() { return items_[0]; }
    const T& front() const { return items_[0]; }
    T& back() { return items_[size_ - 1]; }
    const T& back() const { return items_[size_ - 1]; }

    void clear() { size_ = 0; }
    void push_back(const T& value) {
        room(1);
        items_[size_++] = value;
    }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        room(1);
        items_[size_] = T(std::forward<Args>(args)...);
        return items_[size_++];
    }
    void pop_back() { --size_; }
    void resize(size_type n, const T& value = T()) {
        if (n > N) throw std::length_error("more cards than a deal holds");
        for (size_type i = size_; i < n; ++i) items_[i] = value;
        size_ = n;
    }
    iterator insert(const_iterator at, const T& value) {
        const auto i = at - items_;
        room(1);
        std::copy_backward(items_ + i, items_ + size_, items_ + size_ + 1);
        items_[i] = value;
        ++size_;
        return items_ + i;
    }
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    iterator insert(const_iterator at, It first, It last) {
        const auto i = at - items_;
        const auto n = static_cast<size_type>(std::distance(first, last));
        room(n);
        std::copy_backward(items_ + i, items_ + size_, items_ + size_ + n);
        std::copy(first, last, items_ + i);
        size_ += n;
        return items_ + i;
    }
    iterator insert(const_iterator at, std::initializer_list<T> values) {
        return insert(at, values.begin(), values.end());
    }
    iterator erase(const_iterator at) { return erase(at, at + 1); }
    iterator erase(const_iterator first, const_iterator last) {
        const auto i = first - items_, j = last - items_;
        std::copy(items_ + j, items_ + size_, items_ + i);
        size_ -= static_cast<size_type>(j - i);
        return items_ + i;
    }
    void swap(InlineVector& other) { std::swap(*this, other); }

    friend bool operator==(const InlineVector& a, const InlineVector& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator!=(const InlineVector& a, const InlineVector& b) { return !(a == b); }
    friend bool operator<(const InlineVector& a, const InlineVector& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    }

    friend bool operator>(const InlineVector& a, const InlineVector& b) { return b < a; }
    friend bool operator<=(const InlineVector& a, const InlineVector& b) { return !(b < a); }
    friend bool operator>=(const InlineVector& a, const InlineVector& b) { return !(a < b); }

  private:
    void room(size_type n) const {
        if (size_ + n > N) throw std::length_error("more cards than a deal holds");
    }

    size_type size_ = 0;
    T items_[N];
};

}  // namespace baofen
