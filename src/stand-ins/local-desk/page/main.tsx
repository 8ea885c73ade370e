/** The local desk's page: drawn into <div id="app"> (the server's page shell). */
import { render } from 'preact';
import { App } from './shell/app.js';
import './app.css';

const root = document.getElementById('app');
if (root) render(<App />, root);
