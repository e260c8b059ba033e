import React, { useCallback, useMemo, useState } from 'react';
import clsx from 'clsx';
import { Button } from './Button';
import { Spinner } from './Spinner';
import { formatDate } from '../util/dates';
import type { Todo } from '../model';

const PAGE = 20;

interface TodoListProps {
  todos: Todo[];
  loading?: boolean;
  onToggle(id: string): void;
}

const EMPTY_MESSAGE = 'Nothing to do';

export function TodoList({ todos, loading = false, onToggle }: TodoListProps) {
  const [page, setPage] = useState(0);
  const visible = useMemo(() => todos.slice(0, (page + 1) * PAGE), [todos, page]);
  const more = useCallback(() => setPage((p) => p + 1), []);

  if (loading) return <Spinner />;
  if (visible.length === 0) return <p className="empty">{EMPTY_MESSAGE}</p>;
  return (
    <ul className="todos">
      {visible.map((todo) => (
        <li key={todo.id} className={clsx('todo', { done: todo.done })} onClick={() => onToggle(todo.id)}>
          {todo.title}
        </li>
      ))}
      {visible.length < todos.length && <Button onClick={more}>More</Button>}
    </ul>
  );
}

export function TodoDate({ todo }: { todo: Todo }) {
  return <time dateTime={todo.due}>{formatDate(todo.due)}</time>;
}
